//! Unit tests of the secret-field predicate: each rule, several cases per language, the "code" fields
//! that are not secrets, identifiers matched whole, and the normaliser.

use super::*;

use SecretKind::{Card, OneTimeCode as Otp, Password, Pin};

/// A text input with this label.
fn labelled(label: &str) -> Option<SecretKind> {
    secret_kind(&FieldFacts {
        tag: "input",
        input_type: "text",
        label,
        ..Default::default()
    })
    .map(|s| s.kind)
}

/// A text input with this `name` (and no label).
fn named(name: &str) -> Option<SecretKind> {
    secret_kind(&FieldFacts {
        tag: "input",
        input_type: "text",
        name,
        ..Default::default()
    })
    .map(|s| s.kind)
}

/// A short numeric input with this label, as one-time-code fields usually are.
fn short(label: &str) -> Option<SecretKind> {
    secret_kind(&FieldFacts {
        tag: "input",
        input_type: "text",
        inputmode: "numeric",
        maxlength: Some(6),
        label,
        ..Default::default()
    })
    .map(|s| s.kind)
}

#[track_caller]
fn check(cases: &[(&str, Option<SecretKind>)], f: fn(&str) -> Option<SecretKind>) {
    let failed: Vec<String> = cases
        .iter()
        .filter(|(text, want)| f(text) != *want)
        .map(|(text, want)| format!("{text:?}: want {want:?}, got {:?}", f(text)))
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

mod code;
mod identifiers;
mod languages;
mod normalisation;
mod signals;
