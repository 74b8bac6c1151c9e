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

/// A key ends at any character that cannot be part of it,
/// not only at a quote, a space, a backtick, `;` or the end of the line.
#[test]
fn keys_end_at_any_character_that_cannot_be_part_of_them() {
    let stripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";
    let gcp = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW";
    let jwt = PLANTED[8].1;
    let anthropic = PLANTED[0].1;
    let cases = [
        (format!("https://maps.googleapis.com/x?key={gcp}&q=1"), gcp),
        (
            format!("curl https://api.stripe.com/v1/charges -u {stripe}:"),
            stripe,
        ),
        (format!("stripe.setKey({stripe})"), stripe),
        (format!("keys = [{stripe}, {gcp}]"), stripe),
        (format!("keys = [{stripe}, {gcp}]"), gcp),
        (format!("The token is {jwt}."), jwt),
        (format!("Use {anthropic}."), anthropic),
    ];
    for (text, secret) in &cases {
        let out = redact(text);
        assert!(!out.contains(secret), "{secret} kept in {out}");
        assert!(out.contains("[redacted"), "{out}");
    }
}

#[test]
fn a_private_key_cut_before_its_end_line_is_redacted_to_its_end() {
    let head = "$ head -5 ~/.ssh/id_rsa\n-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n7onLRnrq0ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz012345\nAAECggEAQ1mXfGVMI3YXgdDZ0N7xA3oTZ1fC9";
    let out = redact(head);
    assert_eq!(
        out,
        "$ head -5 ~/.ssh/id_rsa\n[redacted private-key-unterminated]"
    );
    // Followed by other text, that text stays.
    let out = redact(&format!("{head}\n$ echo done"));
    assert!(
        out.ends_with("[redacted private-key-unterminated]\n$ echo done"),
        "{out}"
    );
    assert!(!out.contains("MIIE"), "{out}");
}

#[test]
fn aws_sts_json_credentials_are_redacted() {
    let sts = r#"{"Credentials": {"AccessKeyId": "ASIAQWERTYUIOPASDFGH", "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "SessionToken": "FwoGZXIvYXdzEBYaDEXAMPLESESSIONTOKEN0123456789abcdef/+=", "Expiration": "2026-01-01T00:00:00Z"}}"#;
    let out = redact(sts);
    assert!(!out.contains("wJalrXUtnFEMI"), "{out}");
    assert!(!out.contains("FwoGZXIvYXdz"), "{out}");
    assert!(!out.contains("ASIAQWERTY"), "{out}");
    assert!(
        out.contains(r#""Expiration": "2026-01-01T00:00:00Z""#),
        "{out}"
    );
}

#[test]
fn password_assignments_are_redacted() {
    assert_eq!(
        redact("PASSWORD=hunter2hunter2 ./run"),
        "PASSWORD=[redacted env-secret] ./run"
    );
    assert_eq!(
        redact(r#"{"user": "ada", "password": "correct horse"}"#),
        r#"{"user": "ada", "password": "[redacted json-secret]"}"#
    );
    assert_eq!(
        redact("DB_PASSWORD=ab;cd!ef#gh9 next"),
        "DB_PASSWORD=[redacted env-secret] next"
    );
}

#[test]
fn a_secret_named_by_its_json_key_is_redacted_in_a_value() {
    use serde_json::json;
    let redactor = Redactor::builtin().expect("the built-in rules compile");
    let mut value = json!({
        "user": "ada",
        "password": "hunter2",
        "SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "nested": [{"api_key": "abc\"def"}],
        "apiKey": "s3cr3t-v4lue",
        "primary_key": "id",
    });
    super::redact_value(&redactor, &mut value);
    assert_eq!(
        value,
        json!({
            "user": "ada",
            "password": "[redacted json-secret]",
            "SecretAccessKey": "[redacted aws-secret-access-key]",
            "nested": [{"api_key": "[redacted json-secret]"}],
            "apiKey": "[redacted json-secret]",
            "primary_key": "id",
        })
    );
}

#[test]
fn every_builtin_rule_compiles() {
    // The built-in rules are compiled on first use (`Rule::regex`): each
    // is compiled here, so that none can fail there.
    let redactor = Redactor::builtin().expect("the built-in rules read");
    assert!(redactor.rules.len() > 40, "{} rules", redactor.rules.len());
    for rule in &redactor.rules {
        if let Err(error) = regex::Regex::new(&rule.pattern) {
            panic!("{}: {error}", rule.mark);
        }
        assert!(rule.regex.get().is_none(), "{} compiled before use", rule.mark);
    }
}

#[test]
fn keywords_narrowed_to_what_every_match_holds_still_find_it() {
    // The JWT rule's keyword is `.ey`, json-secret's end at the closing
    // quote (rules.toml): each secret below is found through them alone.
    let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop";
    for (text, mark) in [
        (format!("curl -H 'Authorization: {jwt}'"), "[redacted jwt]"),
        (format!("session={jwt}"), "[redacted jwt]"),
        (r#"{"accessToken": "abc123def"}"#.to_string(), "[redacted json-secret]"),
        (r#"{"ApiKey" : "abc123def"}"#.to_string(), "[redacted json-secret]"),
    ] {
        let redacted = redact(&text);
        assert!(redacted.contains(mark), "{text} → {redacted}");
        assert!(!redacted.contains("abc"), "{text} → {redacted}");
    }
}

#[test]
fn redaction_is_idempotent() {
    for (_, secret) in PLANTED {
        let once = redact(&format!(
            "x {secret}, PASSWORD=hunter2hunter2 y\nAuthorization: Bearer abc123def456ghi789\n\"token\": \"t0k3n\""
        ));
        assert_eq!(redact(&once), once);
    }
}

#[test]
fn hashes_ids_and_images_survive_in_every_context() {
    let ordinary = [
        "3f786850e387550fdab836ed7e6dc881de23001b",
        "123e4567-e89b-12d3-a456-426614174000",
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    ];
    for value in ordinary {
        for text in [
            format!("{value}."),
            format!("({value}),"),
            format!("?id={value}&x=1"),
            format!(r#"{{"sha": "{value}", "token_count": 3}}"#),
        ] {
            assert_eq!(redact(&text), text);
        }
    }
}

/// A secret streamed in pieces (eve's deltas) is found in the
/// joined text and redacted in every piece, also when it spans three, and
/// when a piece holds the end of one secret and the start of the next.
#[test]
fn a_secret_split_across_streamed_pieces_is_redacted_in_each() {
    let redactor = Redactor::builtin().expect("the built-in rules compile");
    let mut joiner = super::Joiner::default();
    let mut feed = |line: usize, raw: &str| joiner.feed(&redactor, "message".into(), line, raw);
    assert_eq!(feed(0, "key: sk_live_4eC39H"), vec![]);
    assert_eq!(
        feed(1, "qLyjWDarjtT1zdp7dc and ghp_aBcDeFgHiJk"),
        vec![
            (0, "key: [redacted stripe-access-token]".to_string()),
            (
                1,
                "[redacted stripe-access-token] and ghp_aBcDeFgHiJk".to_string()
            ),
        ]
    );
    assert_eq!(feed(2, "LmNoPqRs"), vec![]);
    assert_eq!(
        feed(3, "TuVwXyZ0123456789 done"),
        vec![
            (
                1,
                "[redacted stripe-access-token] and [redacted github-pat]".to_string()
            ),
            (2, "[redacted github-pat]".to_string()),
            (3, "[redacted github-pat] done".to_string()),
        ]
    );
    // Another text's pieces are another text.
    assert_eq!(
        joiner.feed(&redactor, "other".into(), 4, "TuVwXyZ0123456789"),
        vec![]
    );
}

/// Fuzz finding 12 (`redactor`): a key's JSON value (`"password": "…`)
/// that another secret's mark ran past — a private key whose lines went on
/// beyond the value's closing quote — left the mark at the value's start,
/// and a second pass took `[redacted …]` and what followed it as a new
/// value to redact. A match that starts at a mark is what a redaction wrote,
/// and is left alone.
#[test]
fn a_secret_that_starts_at_a_mark_is_not_redacted_again() {
    let input = include_bytes!("../../tests/fixtures/fuzz/redactor-mark-in-a-json-value.bin");
    let text = String::from_utf8_lossy(&input[3..]);
    let once = redact(&text);
    assert_ne!(once, text, "the input holds secrets");
    assert_eq!(redact(&once), once);
    let value = r#"{"password": "[redacted private-key] and the rest"}"#;
    assert_eq!(redact(value), value);
}

/// Fuzz finding 13 (`redactor`): a URL's password was left when its scheme
/// was glued to the word before it (`…ghp_…postgres://admin:pw@db`, as a
/// cut or pasted text has it): the rule wanted the scheme to start a word.
/// The password is known by `://user:` and `@` alone.
#[test]
fn a_url_password_is_redacted_whatever_stands_before_its_scheme() {
    let glued = "ghp_tokenpostgres://admin:hunter2fake@db.example.com:5432/app";
    assert_eq!(
        redact(glued),
        "ghp_tokenpostgres://admin:[redacted url-password]@db.example.com:5432/app"
    );
    let input = include_bytes!("../../tests/fixtures/fuzz/redactor-url-after-a-token.bin");
    let text = String::from_utf8_lossy(&input[3..]);
    let once = redact(&text);
    assert!(!once.contains("hunter2fake"), "{once}");
    assert_eq!(redact(&once), once);
}

/// Fuzz finding 14 (`redactor`): redacting twice was not redacting once.
/// A name rule's `NAME=` glued to a token (`ghp_…CCCCSERVICE_API_TOKEN=…`)
/// is no name while the token stands before it, but starts a word once the
/// token is a mark: the second pass found a secret the first had left.
#[test]
fn a_secret_a_mark_uncovers_is_redacted_in_the_same_call() {
    let glued = "ghp_aBcDeFgHiJaBcDeFgHiJCCCCCCCCCCCCCCCCCCCCCCCCCCCCRVICE_API_TOKEN=fake-service-token-value-123";
    let once = redact(glued);
    assert!(!once.contains("fake-service-token-value-123"), "{once}");
    assert_eq!(redact(&once), once);
    let input = include_bytes!("../../tests/fixtures/fuzz/redactor-boundary-after-a-mark.bin");
    let text = String::from_utf8_lossy(&input[3..]);
    let once = redact(&text);
    assert_eq!(redact(&once), once);
}

/// Arguments are shared between events (a JP file read in outline gives its
/// calls one empty value): redacting an event copies its arguments only
/// when they hold text, and never changes the other event's.
#[test]
fn redacting_a_call_leaves_the_arguments_it_shares_as_they_were() {
    use std::sync::Arc;

    use serde_json::{Value, json};

    use crate::model::{Event, EventKind};

    let redactor = Redactor::builtin().expect("the built-in rules compile");
    let call = |arguments: &Arc<Value>| {
        Event::new(
            None,
            EventKind::ToolCallRequest {
                id: "c".into(),
                name: "t".into(),
                arguments: Arc::clone(arguments),
            },
        )
    };
    let arguments_of = |event: &Event| match &event.kind {
        EventKind::ToolCallRequest { arguments, .. } => Arc::clone(arguments),
        _ => unreachable!("a call"),
    };
    let textless = Arc::new(json!({"n": 1, "list": [true, null]}));
    let mut event = call(&textless);
    super::redact_event(&redactor, &mut event);
    assert!(Arc::ptr_eq(&arguments_of(&event), &textless), "no text: not copied");

    let secret = PLANTED[2].1;
    let shared = Arc::new(json!({"command": format!("aws --key {secret}")}));
    let (mut redacted, kept) = (call(&shared), call(&shared));
    super::redact_event(&redactor, &mut redacted);
    let text = arguments_of(&redacted).to_string();
    assert!(!text.contains(secret) && text.contains("[redacted"), "{text}");
    assert!(arguments_of(&kept).to_string().contains(secret));
}

/// A configuration change is held as its text: a secret in it, planted or
/// named by its key, is redacted all the same, and the rest kept.
#[test]
fn a_configuration_change_is_redacted_where_it_holds_a_secret() {
    use serde_json::json;

    use crate::model::{Event, EventKind};

    let redactor = Redactor::builtin().expect("the built-in rules compile");
    let (planted, named) = (PLANTED[3].1, "hunter2-but-longer-and-secret");
    let mut event = Event::new(
        None,
        EventKind::ConfigDelta {
            delta: json!({"providers": {"github": {"token": planted}, "db": {"password": named}},
                          "assistant": {"name": "Dev"}})
            .into(),
        },
    );
    super::redact_event(&redactor, &mut event);
    let EventKind::ConfigDelta { delta } = &event.kind else {
        unreachable!("a change")
    };
    let delta = delta.value();
    let text = delta.to_string();
    assert!(!text.contains(planted) && !text.contains(named), "{text}");
    assert_eq!(delta["providers"]["github"]["token"], "[redacted github-pat]");
    assert_eq!(delta["assistant"]["name"], "Dev");
}
