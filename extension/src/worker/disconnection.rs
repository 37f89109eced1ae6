//! Why the browser ended the native connection, read from the only thing it gives: English words
//! (`runtime.lastError`). This is the one place they are read: Chromium's fixed messages become typed
//! reasons the panel says in the user's language; any other is kept in the browser's own words.
//!
//! Must not: be used for anything but a lost native connection's reason.

use waymark_protocol::Disconnection;

/// What the browser's reason for ending a native connection means.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Gone {
    NotInstalled,
    Forbidden,
    Disconnected(Disconnection),
}

/// The browser says why a native connection ended only in English words (`runtime.lastError`), so
/// this is the one place they are read: Chromium's fixed messages become typed reasons the panel
/// says in the user's language; anything else is kept in the browser's words.
pub(super) fn browser_reason(message: &str) -> Gone {
    let lower = message.to_lowercase();
    if lower.contains("not found") {
        Gone::NotInstalled
    } else if lower.contains("forbidden") {
        Gone::Forbidden
    } else if lower.contains("has exited") {
        Gone::Disconnected(Disconnection::Exited)
    } else if lower.contains("failed to start") {
        Gone::Disconnected(Disconnection::FailedToStart)
    } else if lower.contains("error when communicating") {
        Gone::Disconnected(Disconnection::CommunicationFailed)
    } else {
        Gone::Disconnected(Disconnection::Other {
            reason: message.trim_end_matches('.').to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{browser_reason, Gone};
    use waymark_protocol::Disconnection;

    #[test]
    fn chromiums_reasons_become_typed_and_others_keep_the_browsers_words() {
        let cases = [
            ("Specified native messaging host not found.", Gone::NotInstalled),
            (
                "Access to the specified native messaging host is forbidden.",
                Gone::Forbidden,
            ),
            (
                "Native host has exited.",
                Gone::Disconnected(Disconnection::Exited),
            ),
            (
                "Failed to start native messaging host.",
                Gone::Disconnected(Disconnection::FailedToStart),
            ),
            (
                "Error when communicating with the native messaging host.",
                Gone::Disconnected(Disconnection::CommunicationFailed),
            ),
            (
                "Something the browser never said before.",
                Gone::Disconnected(Disconnection::Other {
                    reason: "Something the browser never said before".into(),
                }),
            ),
        ];
        for (said, meant) in cases {
            assert_eq!(browser_reason(said), meant, "{said}");
        }
    }
}
