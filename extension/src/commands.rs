//! What the user typed into the side panel, as a command. Pure parsing: no browser, no host. The
//! words a language has for some commands (`/да`, a chat line that says "готово") are its catalogue's
//! (`input.ftl`, every language's understood in every context: `wording::heard`); none are written
//! here.

use waymark_protocol::{ActKind, PageTool, ScrollDirection};

use crate::wording;

pub use crate::wording::Usage;

/// Commands the panel understands today, in the order `/help` says them (what each does is the
/// catalogue's: `wording::help`).
pub const COMMANDS: &[&str] = &[
    "/chat",
    "/exit",
    "/list",
    "/click",
    "/type",
    "/select",
    "/set",
    "/rightclick",
    "/hover",
    "/more",
    "/details",
    "/find",
    "/read",
    "/scroll",
    "/press",
    "/go",
    "/back",
    "/forward",
    "/reload",
    "/tabs",
    "/tab",
    "/wait",
    "/banners",
    "/next",
    "/prev",
    "/stop",
    "/yes",
    "/no",
    "/done",
    "/overlay",
    "/ping",
    "/settings",
    "/window",
    "/keys",
    "/help",
];

/// What `/banners` may take, in milliseconds.
const BANNER_BUDGET_MS: u32 = 2_500;

/// The role a focus command is limited to, if one was said ("/next button").
fn role(args: &str) -> Option<String> {
    let role = args.trim().to_lowercase();
    (!role.is_empty()).then_some(role)
}

/// One line of user input, understood.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// `/list`: the first page; `/list all`: every control at once.
    List {
        all: bool,
    },
    /// `/details`: the long form of the last answer.
    Details,
    /// `/window`: the panel in a window of its own.
    Window,
    /// `/keys`: the shortcuts and which are unset.
    Keys,
    /// Act on a number: click, type or select.
    Act {
        index: u32,
        action: ActKind,
        text: Option<String>,
    },
    /// `/yes` or `/no`.
    Answer(bool),
    /// `/done`: the user finished a step the agent handed to them.
    Done,
    /// `/stop`: stop the agent now.
    Stop,
    /// A page tool with its arguments (the panel decides whether it goes through the host's gate).
    Tool(PageTool),
    /// `/more`: the next part of the last list.
    More,
    /// A known command used the wrong way: which, so the panel can say how to use it.
    Usage(Usage),
    Overlay(bool),
    /// `/overlay` without on or off.
    OverlayUsage,
    Ping,
    Help,
    /// `/settings`: open the settings page in a tab.
    Settings,
    /// A slash command we do not know; `suggestion` is the closest one we do, if any is close.
    Unknown {
        name: String,
        suggestion: Option<&'static str>,
    },
    /// `/chat` (true) or `/exit` (false): enter or leave chat mode.
    ChatMode(bool),
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
    // What follows the command name, spacing kept (for text to type).
    let args = rest.trim_start().get(name.len()..).unwrap_or("").trim_start();
    match wording::heard().command(&name).unwrap_or(name.as_str()) {
        "list" => Input::List {
            all: args.trim().eq_ignore_ascii_case("all"),
        },
        "details" | "detail" => Input::Details,
        "window" => Input::Window,
        "keys" | "shortcuts" => Input::Keys,
        "chat" => Input::ChatMode(true),
        "exit" => Input::ChatMode(false),
        "click" => act(args, ActKind::Click, Usage::Click),
        "type" => act(args, ActKind::Type, Usage::Type),
        "select" => act(args, ActKind::Select, Usage::Select),
        "set" => act(args, ActKind::Set, Usage::Set),
        "rightclick" | "menu" => act(args, ActKind::RightClick, Usage::RightClick),
        "hover" => act(args, ActKind::Hover, Usage::Hover),
        "more" => Input::More,
        "find" if !args.is_empty() => Input::Tool(PageTool::Find {
            text: Some(args.trim().to_string()),
            role: None,
            limit: None,
            offset: None,
        }),
        "find" => Input::Usage(Usage::Find),
        "read" => Input::Tool(PageTool::Extract),
        "scroll" => scroll(args),
        "press" => press(args),
        "go" | "open" if !args.is_empty() => Input::Tool(PageTool::Navigate {
            url: args.trim().to_string(),
        }),
        "go" | "open" => Input::Usage(Usage::Go),
        "back" => Input::Tool(PageTool::Back),
        "forward" => Input::Tool(PageTool::Forward),
        "reload" => Input::Tool(PageTool::Reload),
        "tabs" => Input::Tool(PageTool::ListTabs),
        "tab" => match args.trim().parse::<u32>() {
            Ok(index) if index >= 1 => Input::Tool(PageTool::SwitchTab { index }),
            _ => Input::Usage(Usage::Tab),
        },
        "wait" => Input::Tool(PageTool::Wait { ms: None }),
        // The user asked and waits: more time than the agent's automatic passes get.
        "banners" | "cookies" => Input::Tool(PageTool::CloseBanners {
            budget_ms: Some(BANNER_BUDGET_MS),
        }),
        "next" => Input::Tool(PageTool::FocusNext { role: role(args) }),
        "prev" | "previous" => Input::Tool(PageTool::FocusPrev { role: role(args) }),
        // A language's own forms (`/да`) arrive here as these names: see `Heard::command`.
        "yes" | "y" => Input::Answer(true),
        "no" | "n" => Input::Answer(false),
        "done" => Input::Done,
        "stop" => Input::Stop,
        "overlay" => match words.next().map(str::to_lowercase).as_deref() {
            Some("on" | "show") => Input::Overlay(true),
            Some("off" | "hide") => Input::Overlay(false),
            _ => Input::OverlayUsage,
        },
        "ping" => Input::Ping,
        "help" | "?" => Input::Help,
        "settings" | "options" => Input::Settings,
        _ => Input::Unknown {
            suggestion: closest(&name),
            name: format!("/{name}"),
        },
    }
}

/// `up|down|top|bottom [N]`.
fn scroll(args: &str) -> Input {
    let mut words = args.split_whitespace();
    let direction = match words.next().map(str::to_lowercase).as_deref() {
        Some("up") => ScrollDirection::Up,
        Some("down") | None => ScrollDirection::Down,
        Some("top") => ScrollDirection::Top,
        Some("bottom") => ScrollDirection::Bottom,
        Some(_) => return Input::Usage(Usage::Scroll),
    };
    match words.next().map(|n| n.parse::<u32>()) {
        None => Input::Tool(PageTool::Scroll {
            direction,
            index: None,
        }),
        Some(Ok(index)) if index >= 1 => Input::Tool(PageTool::Scroll {
            direction,
            index: Some(index),
        }),
        Some(_) => Input::Usage(Usage::Scroll),
    }
}

/// `KEY [N]`.
fn press(args: &str) -> Input {
    const USAGE: Usage = Usage::Press;
    let mut words = args.split_whitespace();
    let Some(key) = words.next() else {
        return Input::Usage(USAGE);
    };
    match words.next().map(|n| n.parse::<u32>()) {
        None => Input::Tool(PageTool::Press {
            key: key.to_string(),
            index: None,
        }),
        Some(Ok(index)) if index >= 1 => Input::Tool(PageTool::Press {
            key: key.to_string(),
            index: Some(index),
        }),
        Some(_) => Input::Usage(USAGE),
    }
}

/// `N` (click) or `N text` (type, select).
fn act(args: &str, action: ActKind, usage: Usage) -> Input {
    let (number, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
    let Some(index) = number.parse::<u32>().ok().filter(|n| *n >= 1) else {
        return Input::Usage(usage);
    };
    let text = rest.trim();
    match action {
        ActKind::Click | ActKind::RightClick | ActKind::Hover => Input::Act {
            index,
            action,
            text: None,
        },
        _ if text.is_empty() => Input::Usage(usage),
        _ => Input::Act {
            index,
            action,
            text: Some(text.to_string()),
        },
    }
}

/// Every language's words for some commands (`input.ftl`): what may follow the slash for `/yes` and
/// `/no`, and what says done or stop, after a slash or alone on a chat line (which finishes a step
/// handed to the user, or stops the agent). The English names work besides, even before any catalogue
/// is loaded.
#[derive(Debug, Default, PartialEq)]
pub struct Heard {
    pub yes: Vec<String>,
    pub no: Vec<String>,
    pub done: Vec<String>,
    pub stop: Vec<String>,
}

impl Heard {
    /// The English command a language's own form names (`да` is `yes`), if it is one.
    fn command(&self, name: &str) -> Option<&'static str> {
        let name = name.to_owned();
        if self.yes.contains(&name) {
            Some("yes")
        } else if self.no.contains(&name) {
            Some("no")
        } else if self.done.contains(&name) {
            Some("done")
        } else if self.stop.contains(&name) {
            Some("stop")
        } else {
            None
        }
    }
}

/// Whether a chat line just says the user is done (case, spaces and end punctuation aside): while a
/// step handed to the user waits, such a line answers it (like `/done`) instead of going to the agent.
pub fn is_done_word(line: &str) -> bool {
    said_alone(line, &wording::heard().done, "done")
}

/// Whether a chat line just says stop (case, spaces and end punctuation aside): such a line stops the
/// agent (like `/stop`) instead of going to it as a message.
pub fn is_stop_word(line: &str) -> bool {
    said_alone(line, &wording::heard().stop, "stop")
}

/// Whether `line` is one of the languages' words for something, or the English command's own name.
fn said_alone(line: &str, words: &[String], command: &str) -> bool {
    let line = plain_line(line);
    line == command || words.contains(&line)
}

/// A chat line without case, end punctuation or extra spaces, to compare with a word list.
fn plain_line(line: &str) -> String {
    line.trim()
        .trim_end_matches(['.', '!', '。', '！'])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The known command nearest to `name` within two edits, for "did you mean".
fn closest(name: &str) -> Option<&'static str> {
    COMMANDS
        .iter()
        .map(|cmd| (edit_distance(name, &cmd[1..]), *cmd))
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
    fn done_words_in_every_language_say_the_user_is_done() {
        for word in [
            "done",
            "Done.",
            "  I'm   done! ",
            "finished",
            "готово",
            "Готово!",
            "всё  готово.",
            "hotovo",
        ] {
            assert!(is_done_word(word), "{word}");
        }
        for line in [
            "not done yet",
            "done with the first page, now find kettles",
            "no",
            "готово ли?",
            "",
        ] {
            assert!(!is_done_word(line), "{line}");
        }
    }

    /// Every language's own words, as its catalogue lists them, are understood whatever the context's
    /// language, and the English names too; no word means two things.
    #[test]
    fn every_languages_own_words_are_understood() {
        for language in waymark_i18n::languages() {
            let heard = crate::wording::heard_in(&[waymark_i18n::Words::new(language)]);
            let sets = [
                (&heard.yes, Input::Answer(true)),
                (&heard.no, Input::Answer(false)),
                (&heard.done, Input::Done),
                (&heard.stop, Input::Stop),
            ];
            for (words, meant) in sets {
                assert!(!words.is_empty(), "{language}");
                // A command is one word: "всё готово" is said on a chat line, not after a slash.
                for word in words.iter().filter(|w| !w.contains(' ')) {
                    assert_eq!(parse(&format!("/{word}")), meant, "{language}: /{word}");
                    assert_eq!(parse(&format!("/{}", word.to_uppercase())), meant, "{language}");
                }
            }
            for word in heard.done.iter().chain(["done".into()].iter()) {
                assert!(is_done_word(word), "{language}: {word}");
                assert!(!is_stop_word(word), "{language}: {word}");
            }
            for word in heard.stop.iter().chain(["stop".into()].iter()) {
                assert!(is_stop_word(word), "{language}: {word}");
                assert!(!is_done_word(word), "{language}: {word}");
            }
            for (command, meant) in [("/yes", Input::Answer(true)), ("/no", Input::Answer(false))] {
                assert_eq!(parse(command), meant, "{language}");
            }
        }
        let all = crate::wording::heard();
        let meanings = [&all.yes, &all.no, &all.done, &all.stop];
        for (i, words) in meanings.iter().enumerate() {
            for word in words.iter() {
                let elsewhere = meanings.iter().skip(i + 1).any(|other| other.contains(word));
                assert!(!elsewhere, "/{word} means two things");
            }
        }
    }

    #[test]
    fn commands_and_chat() {
        assert_eq!(parse("/ping"), Input::Ping);
        assert_eq!(parse("  /PING now "), Input::Ping);
        assert_eq!(parse("/help"), Input::Help);
        assert_eq!(parse("/?"), Input::Help);
        assert_eq!(parse("/settings"), Input::Settings);
        assert_eq!(
            parse("find flights to Oslo"),
            Input::Chat("find flights to Oslo".into())
        );
        assert_eq!(parse("   "), Input::Empty);
        assert_eq!(parse("/list"), Input::List { all: false });
        assert_eq!(parse("/list ALL"), Input::List { all: true });
        assert_eq!(parse("/details"), Input::Details);
        assert_eq!(parse("/shortcuts"), Input::Keys);
        assert_eq!(parse("/window"), Input::Window);
        assert_eq!(parse("/overlay OFF"), Input::Overlay(false));
        assert_eq!(parse("/overlay on"), Input::Overlay(true));
        assert_eq!(parse("/overlay"), Input::OverlayUsage);
        assert_eq!(
            parse("/click 12"),
            Input::Act {
                index: 12,
                action: ActKind::Click,
                text: None
            }
        );
        assert_eq!(
            parse("/type 4   Hello  World "),
            Input::Act {
                index: 4,
                action: ActKind::Type,
                text: Some("Hello  World".into())
            }
        );
        assert_eq!(
            parse("/SELECT 7 Extra large"),
            Input::Act {
                index: 7,
                action: ActKind::Select,
                text: Some("Extra large".into())
            }
        );
        assert_eq!(parse("/yes"), Input::Answer(true));
        assert_eq!(
            parse("/banners"),
            Input::Tool(PageTool::CloseBanners {
                budget_ms: Some(2_500)
            })
        );
        assert_eq!(parse("/next"), Input::Tool(PageTool::FocusNext { role: None }));
        assert_eq!(
            parse("/prev Button"),
            Input::Tool(PageTool::FocusPrev {
                role: Some("button".into())
            })
        );
        assert_eq!(
            parse("/scroll"),
            Input::Tool(PageTool::Scroll {
                direction: ScrollDirection::Down,
                index: None
            })
        );
        assert_eq!(
            parse("/scroll up 3"),
            Input::Tool(PageTool::Scroll {
                direction: ScrollDirection::Up,
                index: Some(3)
            })
        );
        assert_eq!(
            parse("/press Enter 4"),
            Input::Tool(PageTool::Press {
                key: "Enter".into(),
                index: Some(4)
            })
        );
        assert_eq!(
            parse("/go example.com"),
            Input::Tool(PageTool::Navigate {
                url: "example.com".into()
            })
        );
        assert_eq!(parse("/tab 2"), Input::Tool(PageTool::SwitchTab { index: 2 }));
        assert_eq!(
            parse("/find Add to  cart"),
            Input::Tool(PageTool::Find {
                text: Some("Add to  cart".into()),
                role: None,
                limit: None,
                offset: None
            })
        );
        assert!(matches!(parse("/tab x"), Input::Usage(_)));
        assert!(matches!(parse("/scroll sideways"), Input::Usage(_)));
        assert!(matches!(parse("/find"), Input::Usage(_)));
        assert_eq!(parse("/no"), Input::Answer(false));
        assert_eq!(parse("/DONE"), Input::Done);
        assert_eq!(parse("/stop"), Input::Stop);
        // Every language's own forms, whatever the browser's language.
        assert_eq!(parse("/Стоп"), Input::Stop);
        assert_eq!(parse("/да"), Input::Answer(true));
        assert_eq!(parse("/нет"), Input::Answer(false));
        assert_eq!(parse("/готово"), Input::Done);
        assert_eq!(parse("/ano"), Input::Answer(true));
        assert_eq!(parse("/chat"), Input::ChatMode(true));
        assert_eq!(parse("/Exit"), Input::ChatMode(false));
    }

    #[test]
    fn misused_commands_say_how_to_use_them() {
        assert_eq!(parse("/click"), Input::Usage(Usage::Click));
        assert!(matches!(parse("/click twelve"), Input::Usage(_)));
        assert!(matches!(parse("/click 0"), Input::Usage(_)));
        assert_eq!(parse("/type 4"), Input::Usage(Usage::Type));
        assert!(matches!(parse("/select x Large"), Input::Usage(_)));
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

    #[test]
    fn a_line_that_only_says_stop_stops() {
        for line in ["stop", "Stop!", "  СТОП. ", "stop it", "хватит", "Zastav!"] {
            assert!(is_stop_word(line), "{line}");
        }
        for line in ["stop the music", "don't stop", "bus stop near me", ""] {
            assert!(!is_stop_word(line), "{line}");
        }
    }
}
