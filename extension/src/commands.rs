//! What the user typed into the side panel, as a command. Pure parsing: no browser, no host.

/// Commands the panel understands today, with the help text for each.
pub const COMMANDS: &[(&str, &str)] = &[
    ("/list", "number the controls of the page and read them"),
    ("/overlay", "on or off: show or hide the numbers on the page"),
    (
        "/ping",
        "check that the Waymark host answers, and which process it is",
    ),
    ("/help", "list the commands"),
];

/// One line of user input, understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    List,
    Overlay(bool),
    /// `/overlay` without on or off.
    OverlayUsage,
    Ping,
    Help,
    /// A slash command we do not know; `suggestion` is the closest one we do, if any is close.
    Unknown {
        name: String,
        suggestion: Option<&'static str>,
    },
    /// A line that is not a command: for the agent.
    Chat(String),
    /// Only spaces.
    Empty,
}

/// Understands one line of input. Commands are case-insensitive; extra words after `/ping` and `/help`
/// are ignored.
pub fn parse(line: &str) -> Input {
    let line = line.trim();
    if line.is_empty() {
        return Input::Empty;
    }
    let Some(rest) = line.strip_prefix('/') else {
        return Input::Chat(line.to_string());
    };
    let mut words = rest.split_whitespace();
    let name = words.next().unwrap_or("").to_lowercase();
    match name.as_str() {
        "list" => Input::List,
        "overlay" => match words.next().map(str::to_lowercase).as_deref() {
            Some("on" | "show") => Input::Overlay(true),
            Some("off" | "hide") => Input::Overlay(false),
            _ => Input::OverlayUsage,
        },
        "ping" => Input::Ping,
        "help" | "?" => Input::Help,
        _ => Input::Unknown {
            suggestion: closest(&name),
            name: format!("/{name}"),
        },
    }
}

/// The known command nearest to `name` within two edits, for "did you mean".
fn closest(name: &str) -> Option<&'static str> {
    COMMANDS
        .iter()
        .map(|(cmd, _)| (edit_distance(name, &cmd[1..]), *cmd))
        .filter(|(d, _)| *d <= 2 && !name.is_empty())
        .min_by_key(|(d, _)| *d)
        .map(|(_, cmd)| cmd)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_chat() {
        assert_eq!(parse("/ping"), Input::Ping);
        assert_eq!(parse("  /PING now "), Input::Ping);
        assert_eq!(parse("/help"), Input::Help);
        assert_eq!(parse("/?"), Input::Help);
        assert_eq!(
            parse("find flights to Oslo"),
            Input::Chat("find flights to Oslo".into())
        );
        assert_eq!(parse("   "), Input::Empty);
        assert_eq!(parse("/list"), Input::List);
        assert_eq!(parse("/overlay OFF"), Input::Overlay(false));
        assert_eq!(parse("/overlay on"), Input::Overlay(true));
        assert_eq!(parse("/overlay"), Input::OverlayUsage);
    }

    #[test]
    fn typos_get_a_suggestion_and_nonsense_does_not() {
        assert_eq!(
            parse("/pnig"),
            Input::Unknown {
                name: "/pnig".into(),
                suggestion: Some("/ping")
            }
        );
        assert_eq!(
            parse("/hlep"),
            Input::Unknown {
                name: "/hlep".into(),
                suggestion: Some("/help")
            }
        );
        assert_eq!(
            parse("/teleport"),
            Input::Unknown {
                name: "/teleport".into(),
                suggestion: None
            }
        );
        assert_eq!(
            parse("/"),
            Input::Unknown {
                name: "/".into(),
                suggestion: None
            }
        );
    }
}
