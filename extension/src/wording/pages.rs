//! The static pages' own words (`sidepanel.html`, `settings.html`): their titles, headings, labels,
//! buttons, hints and accessible names, in the user's language. The pages carry English only as the
//! fallback for a browser without scripts; `page_words.rs` puts these in place when a page starts.
//! Part of `wording`.

use waymark_i18n::say;

use super::language::with_words;

/// Where on an element a text goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attribute {
    /// The element's text content (it has no child elements).
    Text,
    /// Its `aria-label`.
    AriaLabel,
}

/// A page's words: its title and, by element id, what each element says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageWords {
    pub title: String,
    pub elements: Vec<(&'static str, Attribute, String)>,
}

/// `sidepanel.html`.
pub fn side_panel() -> PageWords {
    use Attribute::{AriaLabel, Text};
    with_words(|w| PageWords {
        title: say!(w, "page-panel-title"),
        elements: vec![
            ("settings-link", Text, say!(w, "page-panel-settings-link")),
            ("conversation-heading", Text, say!(w, "page-panel-conversation")),
            ("transcript", AriaLabel, say!(w, "page-panel-conversation")),
            ("activity-summary", Text, say!(w, "page-panel-activity")),
            ("activity", AriaLabel, say!(w, "page-panel-activity")),
            ("no", Text, say!(w, "page-panel-no")),
            ("yes", Text, say!(w, "page-panel-yes")),
            ("message-label", Text, say!(w, "page-panel-message")),
            ("send", Text, say!(w, "page-panel-send")),
            ("hint", Text, say!(w, "page-panel-hint")),
        ],
    })
}

/// `settings.html`.
pub fn settings_page() -> PageWords {
    use Attribute::Text;
    with_words(|w| PageWords {
        title: say!(w, "page-settings-title"),
        elements: vec![
            ("settings-heading", Text, say!(w, "page-settings-title")),
            ("where-summary", Text, say!(w, "page-settings-where")),
            ("source", Text, say!(w, "settings-source-unknown")),
            ("llm_base_url-label", Text, say!(w, "settings-field-llm-base-url")),
            (
                "llm_base_url-hint",
                Text,
                say!(w, "page-settings-llm-base-url-hint"),
            ),
            ("llm_model-label", Text, say!(w, "settings-field-llm-model")),
            ("llm_model-hint", Text, say!(w, "page-settings-llm-model-hint")),
            ("llm_api_key-label", Text, say!(w, "settings-field-llm-api-key")),
            (
                "llm_api_key-hint",
                Text,
                say!(w, "page-settings-llm-api-key-hint"),
            ),
            ("clear_key-label", Text, say!(w, "page-settings-clear-key")),
            (
                "max_tool_steps-label",
                Text,
                say!(w, "settings-field-max-tool-steps"),
            ),
            (
                "max_tool_steps-hint",
                Text,
                say!(w, "page-settings-max-tool-steps-hint"),
            ),
            (
                "banner_budget_ms-label",
                Text,
                say!(w, "page-settings-banner-budget-label"),
            ),
            (
                "banner_budget_ms-hint",
                Text,
                say!(w, "page-settings-banner-budget-hint"),
            ),
            ("save", Text, say!(w, "page-settings-save")),
            ("run-doctor", Text, say!(w, "page-settings-run-checks")),
            ("checks-heading", Text, say!(w, "page-settings-checks")),
            ("checks-empty", Text, say!(w, "page-settings-checks-empty")),
        ],
    })
}
