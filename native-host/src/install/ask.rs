//! The question `install` asks on a terminal when no `--browser` was given: which browsers may start
//! Waymark's host.
//!
//! It lists the three browsers Waymark supports, numbered, each marked found or not found, and takes
//! numbers or names. Enter alone takes the browsers found, and the question names them before it is
//! answered: the person has heard or seen exactly what a bare Enter does, and a browser that is not
//! on the computer is registered only when asked for by name or with `all`. The lines are short
//! and plain so a screen reader reads them in order. What it must not do: decide anything without a
//! person — `install` refuses, naming the options to pass, when it is not on a terminal.

use std::io::{BufRead, Write};

use super::places::Browser;

/// How many unclear answers before the question gives up.
const TRIES: usize = 3;

/// What the person answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// These browsers (never empty).
    Browsers(Vec<Browser>),
    /// None: they typed `none`, or Enter when nothing was found.
    Nothing,
    /// They closed the input (Ctrl+D) or gave no clear answer in three tries.
    Stopped,
}

/// Asks on `output`, reads the answer from `input`. `found` is the browsers found, in any order.
pub fn ask(found: &[Browser], input: &mut impl BufRead, output: &mut impl Write) -> std::io::Result<Answer> {
    writeln!(output, "Which browsers may start Waymark's host?")?;
    for (n, browser) in Browser::ALL.into_iter().enumerate() {
        let state = if found.contains(&browser) {
            "found"
        } else {
            "not found"
        };
        writeln!(output, "  {}. {} ({state})", n + 1, browser.label())?;
    }
    writeln!(
        output,
        "Type numbers or names, such as: 1 3, or: chrome edge. Or type all, or none."
    )?;
    let defaults = in_order(found);
    if defaults.is_empty() {
        writeln!(output, "Enter alone registers none: no browser was found.")?;
    } else {
        writeln!(
            output,
            "Enter alone registers the ones found: {}.",
            spoken_list(&defaults)
        )?;
    }
    for _ in 0..TRIES {
        write!(output, "Browsers: ")?;
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(output)?;
            return Ok(Answer::Stopped);
        }
        match parse(&line, &defaults) {
            Ok(chosen) if chosen.is_empty() => return Ok(Answer::Nothing),
            Ok(chosen) => return Ok(Answer::Browsers(chosen)),
            Err(why) => writeln!(output, "{why}")?,
        }
    }
    Ok(Answer::Stopped)
}

/// The browsers an answer names, in Waymark's order; `defaults` for an empty answer. An error says
/// what was not understood and what is.
pub fn parse(answer: &str, defaults: &[Browser]) -> Result<Vec<Browser>, String> {
    let words: Vec<String> = answer
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        return Ok(defaults.to_vec());
    }
    let mut chosen = Vec::new();
    for word in &words {
        match word.as_str() {
            "all" => chosen.extend(Browser::ALL),
            "none" => {
                if words.len() > 1 {
                    return Err("none cannot be combined with other browsers; type it alone.".to_owned());
                }
                return Ok(Vec::new());
            }
            other => {
                let by_number = other
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| n.checked_sub(1))
                    .and_then(|i| Browser::ALL.get(i).copied());
                match by_number.or_else(|| Browser::from_key(other)) {
                    Some(browser) => chosen.push(browser),
                    None => {
                        return Err(format!(
                            "\"{other}\" is not one of 1, 2, 3, chrome, chromium, edge, all or none."
                        ))
                    }
                }
            }
        }
    }
    Ok(in_order(&chosen))
}

/// `browsers` without repeats, in the order of [`Browser::ALL`].
fn in_order(browsers: &[Browser]) -> Vec<Browser> {
    Browser::ALL
        .into_iter()
        .filter(|b| browsers.contains(b))
        .collect()
}

/// "Chromium", "Google Chrome and Chromium", "Google Chrome, Chromium and Microsoft Edge".
pub fn spoken_list(browsers: &[Browser]) -> String {
    let labels: Vec<&str> = browsers.iter().map(|b| b.label()).collect();
    match labels.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(found: &[Browser], typed: &str) -> (Answer, String) {
        let mut output = Vec::new();
        let answer = ask(found, &mut typed.as_bytes(), &mut output).unwrap();
        (answer, String::from_utf8(output).unwrap())
    }

    #[test]
    fn the_question_lists_every_browser_and_says_what_enter_does() {
        let (answer, said) = run(&[Browser::Chromium], "\n");
        assert_eq!(answer, Answer::Browsers(vec![Browser::Chromium]));
        assert!(said.contains("  1. Google Chrome (not found)\n"), "{said}");
        assert!(said.contains("  2. Chromium (found)\n"), "{said}");
        assert!(said.contains("  3. Microsoft Edge (not found)\n"), "{said}");
        assert!(
            said.contains("Enter alone registers the ones found: Chromium."),
            "{said}"
        );
    }

    #[test]
    fn with_nothing_found_enter_registers_nothing() {
        let (answer, said) = run(&[], "\n");
        assert_eq!(answer, Answer::Nothing);
        assert!(
            said.contains("Enter alone registers none: no browser was found."),
            "{said}"
        );
    }

    #[test]
    fn numbers_names_all_and_none_are_understood() {
        let found = [Browser::Chrome];
        assert_eq!(parse("1 3", &found), Ok(vec![Browser::Chrome, Browser::Edge]));
        assert_eq!(
            parse("edge,Chrome", &found),
            Ok(vec![Browser::Chrome, Browser::Edge])
        );
        assert_eq!(parse(" 2, 2 chromium ", &found), Ok(vec![Browser::Chromium]));
        assert_eq!(parse("all", &found), Ok(Browser::ALL.to_vec()));
        assert_eq!(parse("none", &found), Ok(vec![]));
        assert_eq!(parse("", &found), Ok(vec![Browser::Chrome]));
        assert!(parse("none 1", &found).is_err());
        assert!(parse("0", &found).is_err());
        assert!(parse("firefox", &found)
            .unwrap_err()
            .contains("\"firefox\" is not one of"));
    }

    #[test]
    fn an_unclear_answer_is_asked_again_and_closing_the_input_stops() {
        let (answer, said) = run(&[], "seven\n2\n");
        assert_eq!(answer, Answer::Browsers(vec![Browser::Chromium]));
        assert_eq!(said.matches("Browsers: ").count(), 2, "{said}");
        assert!(said.contains("\"seven\" is not one of"), "{said}");
        assert_eq!(run(&[Browser::Edge], "").0, Answer::Stopped);
        assert_eq!(
            run(&[], "x\ny\nz\n1\n").0,
            Answer::Stopped,
            "three tries, then it stops"
        );
        assert_eq!(run(&[Browser::Edge], "none\n").0, Answer::Nothing);
    }

    #[test]
    fn lists_are_said_as_people_say_them() {
        assert_eq!(spoken_list(&[Browser::Edge]), "Microsoft Edge");
        assert_eq!(
            spoken_list(&Browser::ALL),
            "Google Chrome, Chromium and Microsoft Edge"
        );
    }
}
