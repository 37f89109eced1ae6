//! The question `install` asks on a terminal when no `--browser` was given: which browsers may start
//! Waymark's host.
//!
//! It lists the three browsers Waymark supports, numbered, each marked found or not found, and takes
//! numbers or names. Enter alone takes the browsers found, and the question names them before it is
//! answered: the person has heard or seen exactly what a bare Enter does, and a browser that is not
//! on the computer is registered only when asked for by name or with `all`. The lines are short
//! and plain so a screen reader reads them in order. What it must not do: decide anything without a
//! person — `install` refuses, naming the options to pass, when it is not on a terminal.
//!
//! The lines are said in the terminal's language; `all` and `none` are understood in English and in
//! the terminal's language's own words (`input.ftl`: «все» and «нет» for a Russian terminal).

use std::io::{BufRead, Write};

use waymark_i18n::{say, Words};

use super::places::Browser;
use super::said::spoken_list;

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

/// What an answer said that names no browser.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unclear {
    /// `none` with browsers beside it.
    NoneWithOthers,
    /// A word that is no browser's number or name, nor `all` or `none`.
    Unknown(String),
}

impl Unclear {
    fn said(&self, words: &Words) -> String {
        match self {
            Unclear::NoneWithOthers => say!(words, "cli-ask-none-alone"),
            Unclear::Unknown(word) => say!(words, "cli-ask-unknown", answer = word.as_str()),
        }
    }
}

/// Asks on `output` in `words`, reads the answer from `input`. `found` is the browsers found, in any
/// order.
pub fn ask(
    found: &[Browser],
    input: &mut impl BufRead,
    output: &mut impl Write,
    words: &Words,
) -> std::io::Result<Answer> {
    writeln!(output, "{}", say!(words, "cli-ask-which"))?;
    for (n, browser) in Browser::ALL.into_iter().enumerate() {
        let (number, label) = (n + 1, browser.label());
        let line = if found.contains(&browser) {
            say!(words, "cli-ask-found", number = number, browser = label)
        } else {
            say!(words, "cli-ask-not-found", number = number, browser = label)
        };
        writeln!(output, "  {line}")?;
    }
    writeln!(output, "{}", say!(words, "cli-ask-how"))?;
    let defaults = in_order(found);
    if defaults.is_empty() {
        writeln!(output, "{}", say!(words, "cli-ask-enter-none"))?;
    } else {
        let browsers = spoken_list(&defaults, words);
        writeln!(
            output,
            "{}",
            say!(words, "cli-ask-enter-found", browsers = browsers)
        )?;
    }
    for _ in 0..TRIES {
        write!(output, "{} ", say!(words, "cli-ask-prompt"))?;
        output.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            writeln!(output)?;
            return Ok(Answer::Stopped);
        }
        match parse(&line, &defaults, words) {
            Ok(chosen) if chosen.is_empty() => return Ok(Answer::Nothing),
            Ok(chosen) => return Ok(Answer::Browsers(chosen)),
            Err(why) => writeln!(output, "{}", why.said(words))?,
        }
    }
    Ok(Answer::Stopped)
}

/// The browsers an answer names, in Waymark's order; `defaults` for an empty answer. An error says
/// what was not understood. `all` and `none` are also understood in the words of `language`.
pub fn parse(answer: &str, defaults: &[Browser], language: &Words) -> Result<Vec<Browser>, Unclear> {
    let all = waymark_i18n::alternatives(&say!(language, "input-cli-all"));
    let none = waymark_i18n::alternatives(&say!(language, "input-cli-none"));
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
            word if word == "all" || all.iter().any(|w| w == word) => chosen.extend(Browser::ALL),
            word if word == "none" || none.iter().any(|w| w == word) => {
                if words.len() > 1 {
                    return Err(Unclear::NoneWithOthers);
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
                    None => return Err(Unclear::Unknown(other.to_owned())),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn run(found: &[Browser], typed: &str) -> (Answer, String) {
        run_in(&Words::english(), found, typed)
    }

    fn run_in(words: &Words, found: &[Browser], typed: &str) -> (Answer, String) {
        let mut output = Vec::new();
        let answer = ask(found, &mut typed.as_bytes(), &mut output, words).unwrap();
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
        let english = Words::english();
        assert_eq!(
            parse("1 3", &found, &english),
            Ok(vec![Browser::Chrome, Browser::Edge])
        );
        assert_eq!(
            parse("edge,Chrome", &found, &english),
            Ok(vec![Browser::Chrome, Browser::Edge])
        );
        assert_eq!(
            parse(" 2, 2 chromium ", &found, &english),
            Ok(vec![Browser::Chromium])
        );
        assert_eq!(parse("all", &found, &english), Ok(Browser::ALL.to_vec()));
        assert_eq!(parse("none", &found, &english), Ok(vec![]));
        assert_eq!(parse("", &found, &english), Ok(vec![Browser::Chrome]));
        assert!(parse("none 1", &found, &english).is_err());
        assert!(parse("0", &found, &english).is_err());
        assert_eq!(
            parse("firefox", &found, &english),
            Err(Unclear::Unknown("firefox".into()))
        );
        assert!(parse("все", &found, &english).is_err());
        let russian = Words::new("ru");
        assert_eq!(parse("все", &found, &russian), Ok(Browser::ALL.to_vec()));
        assert_eq!(parse("нет", &found, &russian), Ok(vec![]));
        assert_eq!(parse("all", &found, &russian), Ok(Browser::ALL.to_vec()));
        // Every language's own words for all and none are understood in that language.
        for language in waymark_i18n::languages() {
            let words = Words::new(language);
            for all in waymark_i18n::alternatives(&say!(words, "input-cli-all")) {
                assert_eq!(
                    parse(&all, &found, &words),
                    Ok(Browser::ALL.to_vec()),
                    "{language}"
                );
            }
            for none in waymark_i18n::alternatives(&say!(words, "input-cli-none")) {
                assert_eq!(parse(&none, &found, &words), Ok(vec![]), "{language}");
            }
        }
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
        let english = Words::english();
        assert_eq!(spoken_list(&[Browser::Edge], &english), "Microsoft Edge");
        assert_eq!(
            spoken_list(&Browser::ALL, &english),
            "Google Chrome, Chromium and Microsoft Edge"
        );
        let russian = Words::new("ru");
        assert_eq!(
            spoken_list(&[Browser::Chrome, Browser::Edge], &russian),
            "Google Chrome и Microsoft Edge"
        );
    }

    /// A Russian terminal is asked in Russian, and its answers understood.
    #[test]
    fn the_question_is_asked_in_russian() {
        let russian = Words::new("ru");
        let (answer, said) = run_in(&russian, &[Browser::Chromium], "семь\nнет 1\nвсе\n");
        assert_eq!(answer, Answer::Browsers(Browser::ALL.to_vec()));
        assert!(said.contains("  2. Chromium (найден)\n"), "{said}");
        assert!(
            said.contains("будут зарегистрированы найденные: Chromium."),
            "{said}"
        );
        assert_eq!(said.matches("Браузеры: ").count(), 3, "{said}");
        let values = [
            "Google Chrome",
            "Chromium",
            "Microsoft Edge",
            "Enter",
            "chrome",
            "edge",
            "chromium",
            "семь",
        ];
        assert_eq!(
            crate::language::latin_words(&said, &values),
            Vec::<String>::new(),
            "{said}"
        );
        let (answer, said) = run_in(&russian, &[], "\n");
        assert_eq!(answer, Answer::Nothing);
        assert!(
            said.contains("ничего не будет зарегистрировано: браузеры не найдены"),
            "{said}"
        );
    }
}
