//! The tools whose text is a message to the user rather than a tool result:
//! named once here, for the formats that produce their calls, the policy that
//! gives them a built-in style and the document that shows them as speech.

/// JP's message tool (RFD 094): its result is said to the user.
pub const TELL_USER: &str = "tell_user";

/// eve's mid-turn update tool: its `message` argument is said to the user.
pub const SEND_CHANNEL_UPDATE: &str = "send_channel_update";

/// Every message tool; each ships a built-in style (display-policy §3.1).
pub const MESSAGE_TOOLS: [&str; 2] = [TELL_USER, SEND_CHANNEL_UPDATE];

/// Whether `name` is one of the [`MESSAGE_TOOLS`].
pub fn is_message_tool(name: &str) -> bool {
    MESSAGE_TOOLS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_message_tools_are_message_tools() {
        assert!(is_message_tool("tell_user"));
        assert!(is_message_tool("send_channel_update"));
        assert!(!is_message_tool("fs_read_file"));
        assert!(!is_message_tool("ns__send_channel_update"));
    }
}
