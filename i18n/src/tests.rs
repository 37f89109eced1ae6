//! The catalogue tests: every language has every message English has (and no other), with the same
//! values by name; every file parses; every plural choice covers the forms its language needs; every
//! message can be said in every language without an error. A translation that lacks anything fails here.

use std::collections::{BTreeMap, BTreeSet};

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement, VariantKey};
use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};

use super::*;

/// A message's shape: the values it names, and for each plural choice (by the value it is made on)
/// the variant keys it offers.
#[derive(Debug, Default, PartialEq)]
struct Shape {
    variables: BTreeSet<String>,
    choices: Vec<(String, BTreeSet<String>)>,
}

/// Every message and attribute (`id` or `id.attribute`) of one language, with its file and shape.
fn messages(language: &str) -> BTreeMap<String, (String, Shape)> {
    let (_, files) = CATALOGUES
        .iter()
        .find(|(tag, _)| *tag == language)
        .expect("the language has a catalogue");
    let mut all = BTreeMap::new();
    for (file, text) in files.iter() {
        let resource = fluent_syntax::parser::parse(*text)
            .unwrap_or_else(|(_, errors)| panic!("locales/{language}/{file} does not parse: {errors:?}"));
        for entry in resource.body {
            match entry {
                Entry::Message(m) => {
                    let id = m.id.name.to_string();
                    let mut add = |key: String, pattern: Option<&Pattern<&str>>| {
                        let mut shape = Shape::default();
                        if let Some(p) = pattern {
                            walk(p, &mut shape);
                        }
                        let previous = all.insert(key.clone(), (file.to_string(), shape));
                        assert!(previous.is_none(), "{language}: `{key}` is defined twice");
                    };
                    add(id.clone(), m.value.as_ref());
                    for a in &m.attributes {
                        add(format!("{id}.{}", a.id.name), Some(&a.value));
                    }
                }
                Entry::Junk { content } => panic!("locales/{language}/{file}: junk: {content}"),
                _ => {}
            }
        }
    }
    all
}

fn walk(pattern: &Pattern<&str>, shape: &mut Shape) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_shape(expression, shape);
        }
    }
}

fn expression_shape(expression: &Expression<&str>, shape: &mut Shape) {
    match expression {
        Expression::Inline(inline) => inline_shape(inline, shape),
        Expression::Select { selector, variants } => {
            inline_shape(selector, shape);
            let on = match selector {
                InlineExpression::VariableReference { id } => id.name.to_string(),
                other => format!("{other:?}"),
            };
            let keys = variants
                .iter()
                .map(|v| match &v.key {
                    VariantKey::Identifier { name } => name.to_string(),
                    VariantKey::NumberLiteral { value } => value.to_string(),
                })
                .collect();
            shape.choices.push((on, keys));
            for v in variants {
                walk(&v.value, shape);
            }
        }
    }
}

fn inline_shape(inline: &InlineExpression<&str>, shape: &mut Shape) {
    match inline {
        InlineExpression::VariableReference { id } => {
            shape.variables.insert(id.name.to_string());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for a in &arguments.positional {
                inline_shape(a, shape);
            }
        }
        InlineExpression::Placeable { expression } => expression_shape(expression, shape),
        _ => {}
    }
}

fn plural_forms(language: &str) -> BTreeSet<String> {
    let id: LanguageIdentifier = language.parse().expect("a language tag");
    let rules = PluralRules::create(id, PluralRuleType::CARDINAL).expect("plural rules");
    (0..=1000u32)
        .map(|n| match rules.select(n).expect("a plural category") {
            PluralCategory::ZERO => "zero",
            PluralCategory::ONE => "one",
            PluralCategory::TWO => "two",
            PluralCategory::FEW => "few",
            PluralCategory::MANY => "many",
            PluralCategory::OTHER => "other",
        })
        .map(str::to_owned)
        .collect()
}

const PLURAL_KEYS: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

#[test]
fn english_and_russian_are_there() {
    let all: Vec<_> = languages().collect();
    assert!(all.contains(&"en") && all.contains(&"ru"), "{all:?}");
}

/// The third language is there to prove a language is a directory: its plural forms are neither
/// English's nor Russian's, so a message written for either one's forms would fail it.
#[test]
fn three_languages_with_three_plural_systems() {
    let forms = |l| plural_forms(l).into_iter().collect::<Vec<_>>();
    assert_eq!(forms("en"), ["one", "other"]);
    assert_eq!(forms("ru"), ["few", "many", "one"]);
    assert_eq!(forms("cs"), ["few", "one", "other"]);
}

#[test]
fn every_language_has_every_message_with_the_same_values() {
    let english = messages(FALLBACK);
    for language in languages().filter(|l| *l != FALLBACK) {
        let theirs = messages(language);
        let missing: Vec<_> = english.keys().filter(|k| !theirs.contains_key(*k)).collect();
        let extra: Vec<_> = theirs.keys().filter(|k| !english.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{language} lacks {missing:?}");
        assert!(
            extra.is_empty(),
            "{language} has messages English lacks: {extra:?}"
        );
        for (id, (file, shape)) in &english {
            let (their_file, their_shape) = &theirs[id];
            assert_eq!(file, their_file, "{language}: `{id}` is in another file");
            assert_eq!(
                shape.variables, their_shape.variables,
                "{language}: `{id}` names other values than English"
            );
        }
    }
}

#[test]
fn every_plural_choice_has_the_forms_its_language_needs() {
    for language in languages() {
        let needed = plural_forms(language);
        for (id, (_, shape)) in messages(language) {
            for (on, keys) in &shape.choices {
                if !keys.iter().any(|k| PLURAL_KEYS.contains(&k.as_str())) {
                    continue; // a choice on a word, not on a number
                }
                let lacking: Vec<_> = needed.iter().filter(|f| !keys.contains(*f)).collect();
                assert!(
                    lacking.is_empty(),
                    "{language}: `{id}` chooses on ${on} without the forms {lacking:?}"
                );
            }
        }
    }
}

#[test]
fn every_message_is_said_without_an_error_in_every_language() {
    for language in languages() {
        let words = Words::new(language);
        for (id, (_, shape)) in messages(language) {
            let (message, attribute) = match id.split_once('.') {
                Some((m, a)) => (m.to_owned(), Some(a.to_owned())),
                None => (id.clone(), None),
            };
            let Some(m) = words.bundle.get_message(&message) else {
                panic!("{language}: `{message}` is not in the bundle");
            };
            let pattern = match &attribute {
                Some(a) => m.get_attribute(a).map(|a| a.value()),
                None => m.value(),
            };
            let Some(pattern) = pattern else { continue };
            for sample in [0, 1, 2, 5, 21, 1000] {
                let mut args = FluentArgs::new();
                for v in &shape.variables {
                    let numeric = shape.choices.iter().any(|(on, _)| on == v);
                    if numeric {
                        args.set(v.clone(), sample);
                    } else {
                        args.set(v.clone(), "x");
                    }
                }
                let mut errors = Vec::new();
                let said = words.bundle.format_pattern(pattern, Some(&args), &mut errors);
                assert!(errors.is_empty(), "{language}: `{id}`: {errors:?}");
                assert!(!said.trim().is_empty(), "{language}: `{id}` says nothing");
            }
        }
    }
}

#[test]
fn the_best_language_is_the_same_tag_then_the_same_language_then_english() {
    assert_eq!(best_language("ru"), "ru");
    assert_eq!(best_language("ru-RU"), "ru");
    assert_eq!(best_language("RU_ru"), "ru");
    assert_eq!(best_language("en-GB"), "en");
    assert_eq!(best_language("xx"), "en");
    assert_eq!(best_language(""), "en");
}

#[test]
fn values_are_said_in_place_and_plurals_follow_the_language() {
    let en = Words::new("en");
    let ru = Words::new("ru-RU");
    assert_eq!(en.language(), "en");
    assert_eq!(ru.language(), "ru");
    assert_eq!(say!(en, "test-items", count = 1), "1 item");
    assert_eq!(say!(en, "test-items", count = 5), "5 items");
    assert_eq!(say!(ru, "test-items", count = 1), "1 элемент");
    assert_eq!(say!(ru, "test-items", count = 3), "3 элемента");
    assert_eq!(say!(ru, "test-items", count = 5), "5 элементов");
    assert_eq!(say!(ru, "test-items", count = 21), "21 элемент");
    let cs = Words::new("cs-CZ");
    assert_eq!(say!(cs, "test-items", count = 1), "1 položka");
    assert_eq!(say!(cs, "test-items", count = 3), "3 položky");
    assert_eq!(say!(cs, "test-items", count = 5), "5 položek");
    assert_eq!(say!(cs, "test-items", count = 21), "21 položek");
    // No isolation marks around values: a screen reader may say them.
    assert!(!say!(en, "test-items", count = 2).contains('\u{2068}'));
}

#[test]
fn a_message_nobody_wrote_is_said_as_its_id() {
    assert_eq!(
        Words::new("ru").say("no-such-message", &Args::new()),
        "no-such-message"
    );
}

#[test]
fn foreign_words_are_the_latin_words_a_language_never_uses() {
    assert_eq!(
        foreign_words("Kliknuto na 3, tlačítko, Uložit. Napište /list.", "cs", &[]),
        Vec::<String>::new()
    );
    assert_eq!(
        foreign_words("Clicked 3, button, Uložit.", "cs", &[]),
        ["Clicked", "button"]
    );
    assert_eq!(foreign_words("Clicked Save", "cs", &["Save"]), ["Clicked"]);
    // The catalogue's syntax is English in every language, and says nothing: values' names, variant
    // keys, message ids.
    assert_eq!(
        foreign_words("other few count seconds", "cs", &[]),
        ["other", "few", "count", "seconds"]
    );
    assert_eq!(
        foreign_words("Нажато: 3, кнопка, Enter.", "ru", &[]),
        Vec::<String>::new()
    );
    assert_eq!(foreign_words("Pressed Enter", "ru", &[]), ["Pressed"]);
}

/// A message left in English in another language's catalogue would pass the tests that look for
/// English in what Waymark says (its words would be the language's own): such a message is caught
/// here. A short one may be the same in both (a key's name, "Pong, 3 ms.").
#[test]
fn no_language_keeps_a_sentence_of_english() {
    let text = |words: &Words, id: &str| {
        let (message, attribute) = id.split_once('.').map_or((id, None), |(m, a)| (m, Some(a)));
        let m = words.bundle.get_message(message)?;
        let pattern = match attribute {
            Some(a) => m.get_attribute(a)?.value(),
            None => m.value()?,
        };
        let mut errors = Vec::new();
        Some(
            words
                .bundle
                .format_pattern(pattern, None, &mut errors)
                .into_owned(),
        )
    };
    let english_words = Words::english();
    for language in languages().filter(|l| *l != FALLBACK) {
        let their_words = Words::new(language);
        for id in messages(FALLBACK).keys() {
            let (Some(english), Some(theirs)) = (text(&english_words, id), text(&their_words, id)) else {
                continue;
            };
            // Values are said as `{$name}` without their values: they are not words.
            let words = said_part(&english)
                .split(|c: char| !c.is_alphabetic())
                .filter(|w| w.len() > 1)
                .count();
            assert!(
                english != theirs || words < 3,
                "{language}: `{id}` is English's word for word: {theirs}"
            );
        }
    }
}
