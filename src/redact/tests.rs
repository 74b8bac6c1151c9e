use super::Redactor;

fn redact(text: &str) -> String {
    Redactor::builtin()
        .expect("the built-in rules compile")
        .redact(text)
        .into_owned()
}

/// Synthetic, well-formed secrets of each kind promised, with the rule
/// expected to catch them (never real keys).
pub(crate) const PLANTED: &[(&str, &str)] = &[
    (
        "anthropic-api-key",
        "sk-ant-api03-ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdeAA",
    ),
    (
        "openai-api-key",
        "sk-proj-abcdefghijABCDEFGHIJ0123456789abcdefghijABCDEFGHIJ0123456789abcdefghijABCDT3BlbkFJabcdefghijABCDEFGHIJ0123456789abcdefghijABCDEFGHIJ0123456789abcdefghijABCD",
    ),
    ("aws-access-token", "AKIAQWERTYUIOPASDFGH"),
    ("github-pat", "ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"),
    ("gitlab-pat", "glpat-xYz0123456789AbCdEfG"),
    (
        "slack-bot-token",
        "xoxb-1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    ("gcp-api-key", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"),
    ("stripe-access-token", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
    (
        "jwt",
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    ),
];

#[test]
fn every_planted_secret_becomes_its_mark() {
    for (rule, secret) in PLANTED {
        let text = format!("before {secret} after");
        let out = redact(&text);
        assert!(!out.contains(secret), "{rule} kept: {out}");
        assert_eq!(out, format!("before [redacted {rule}] after"), "{rule}");
    }
}

#[test]
fn private_key_block_is_redacted_whole() {
    let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0\n-----END RSA PRIVATE KEY-----";
    let out = redact(&format!("key:\n{pem}\ndone"));
    assert_eq!(out, "key:\n[redacted private-key]\ndone");
}

#[test]
fn named_credentials_keep_their_names() {
    assert_eq!(
        redact("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"),
        "aws_secret_access_key = [redacted aws-secret-access-key]\n"
    );
    assert_eq!(
        redact("curl -H 'Authorization: Bearer abc123def456ghi789' x"),
        "curl -H 'Authorization: Bearer [redacted authorization-header]' x"
    );
    assert_eq!(
        redact("postgres://admin:hunter2secret@db.example.com/app"),
        "postgres://admin:[redacted url-password]@db.example.com/app"
    );
    assert_eq!(
        redact("OPENAI_API_KEY=not-a-real-value-123\nDB_PASSWORD=\"correct-horse-battery\""),
        "OPENAI_API_KEY=[redacted env-secret]\nDB_PASSWORD=\"[redacted env-secret]\""
    );
}

#[test]
fn ordinary_text_is_left_alone() {
    let ordinary = [
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "id 123e4567-e89b-12d3-a456-426614174000",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
        "MAX_KEY=3 and PRIMARY_KEY=id",
        "export OPENAI_API_KEY=$OPENAI_API_KEY",
        "see https://example.com:8080/path and user@example.com",
        "the Authorization header must be set",
        "ask for a sk-ant key, a ghp_ token and AKIA-prefixed ids",
    ];
    for text in ordinary {
        assert_eq!(redact(text), text);
    }
}

#[test]
fn overlapping_secrets_get_one_mark() {
    // An env assignment whose value is itself a provider key: one mark.
    let out = redact("GITHUB_TOKEN=ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 ok");
    assert!(!out.contains("ghp_aBc"), "{out}");
    assert_eq!(out.matches("[redacted").count(), 1, "{out}");
}
