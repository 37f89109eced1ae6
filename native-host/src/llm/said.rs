//! What the user hears when the model server fails ([`LlmError`]), in their language (`agent.ftl`):
//! the same facts as the error's English `Display` (which the logs and `waymark-host doctor` in a
//! terminal keep), with the server's own words and addresses as values.
//!
//! What it must not do: decide anything about the error (retrying, repairing are the client's and the
//! loop's), or drop the detail a person needs to fix it (the address, the status, the setting to change).

use waymark_i18n::{say, Words};

use super::{preview, LlmError};

impl LlmError {
    /// The error as the user hears it, in their language.
    pub fn said(&self, words: &Words) -> String {
        match self {
            LlmError::Unreachable { base_url, detail } => {
                say!(
                    words,
                    "llm-unreachable",
                    address = base_url.as_str(),
                    detail = detail.as_str()
                )
            }
            LlmError::Auth {
                base_url,
                status,
                detail,
            } => say!(
                words,
                "llm-auth",
                address = base_url.as_str(),
                status = *status,
                detail = detail.as_str()
            ),
            LlmError::ModelNotFound {
                model,
                base_url,
                detail,
            } => say!(
                words,
                "llm-model-not-found",
                model = model.as_str(),
                address = base_url.as_str(),
                detail = detail.as_str()
            ),
            LlmError::ToolsUnsupported { model } => {
                say!(words, "llm-tools-unsupported", model = model.as_str())
            }
            LlmError::RateLimited {
                base_url,
                attempts,
                detail,
            } => say!(
                words,
                "llm-rate-limited",
                address = base_url.as_str(),
                attempts = *attempts,
                detail = detail.as_str()
            ),
            LlmError::Server {
                base_url,
                status,
                attempts,
                detail,
            } => say!(
                words,
                "llm-server",
                address = base_url.as_str(),
                status = *status,
                attempts = *attempts,
                detail = detail.as_str()
            ),
            LlmError::Rejected {
                base_url,
                status,
                detail,
            } => say!(
                words,
                "llm-rejected",
                address = base_url.as_str(),
                status = *status,
                detail = detail.as_str()
            ),
            LlmError::Timeout { base_url, secs } => {
                say!(words, "llm-timeout", address = base_url.as_str(), seconds = *secs)
            }
            LlmError::ContextOverflow { base_url, detail } => say!(
                words,
                "llm-context-overflow",
                address = base_url.as_str(),
                detail = detail.as_str()
            ),
            LlmError::ConnectionLost { base_url, detail } => say!(
                words,
                "llm-connection-lost",
                address = base_url.as_str(),
                detail = detail.as_str()
            ),
            LlmError::Transport { base_url, detail } => {
                say!(
                    words,
                    "llm-transport",
                    address = base_url.as_str(),
                    detail = detail.as_str()
                )
            }
            LlmError::BadResponse { raw, why } => {
                say!(
                    words,
                    "llm-bad-response",
                    detail = why.as_str(),
                    answer = preview(raw)
                )
            }
            LlmError::Invalid { raw, why } => {
                say!(words, "llm-invalid", detail = why.as_str(), answer = preview(raw))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::language::latin_words;

    #[test]
    fn every_failure_of_the_model_server_is_said_in_russian() {
        let words = Words::new("ru");
        let url = || "http://127.0.0.1:11434/v1".to_owned();
        let detail = || "connection refused".to_owned();
        let errors = [
            LlmError::Unreachable {
                base_url: url(),
                detail: detail(),
            },
            LlmError::Auth {
                base_url: url(),
                status: 401,
                detail: detail(),
            },
            LlmError::ModelNotFound {
                model: "qwen3".into(),
                base_url: url(),
                detail: detail(),
            },
            LlmError::ToolsUnsupported {
                model: "qwen3".into(),
            },
            LlmError::RateLimited {
                base_url: url(),
                attempts: 3,
                detail: detail(),
            },
            LlmError::Server {
                base_url: url(),
                status: 500,
                attempts: 5,
                detail: detail(),
            },
            LlmError::Rejected {
                base_url: url(),
                status: 400,
                detail: detail(),
            },
            LlmError::Timeout {
                base_url: url(),
                secs: 1.5,
            },
            LlmError::ContextOverflow {
                base_url: url(),
                detail: detail(),
            },
            LlmError::ConnectionLost {
                base_url: url(),
                detail: detail(),
            },
            LlmError::Transport {
                base_url: url(),
                detail: detail(),
            },
            LlmError::BadResponse {
                raw: "<html>".into(),
                why: detail(),
            },
            LlmError::Invalid {
                raw: "<html>".into(),
                why: detail(),
            },
        ];
        // Names a person types to fix it: settings, commands, options, programs.
        let names = [
            "WAYMARK_LLM_BASE_URL",
            "WAYMARK_LLM_API_KEY",
            "OPENAI_API_KEY",
            "WAYMARK_LLM_MODEL",
            "WAYMARK_LLM_TIMEOUT_SECS",
            "llm_timeout_secs",
            "config.toml",
            "ollama pull",
            "Ollama",
            "llama.cpp",
            "llama-cpp-python",
            "--n_ctx",
            "-c",
            "num_ctx",
            "/v1",
            "HTTP",
            "API",
            "JSON",
        ];
        for error in &errors {
            let said = error.said(&words);
            let mut values = vec!["http://127.0.0.1:11434/v1", "connection refused", "qwen3", "html"];
            values.extend(names);
            let english = latin_words(&said, &values);
            assert!(english.is_empty(), "{english:?} in: {said}");
        }
        let said = LlmError::Server {
            base_url: url(),
            status: 500,
            attempts: 3,
            detail: detail(),
        }
        .said(&words);
        assert!(said.contains("3 раза подряд"), "{said}");
        let said = LlmError::RateLimited {
            base_url: url(),
            attempts: 5,
            detail: detail(),
        }
        .said(&words);
        assert!(said.contains("5 попыток"), "{said}");
    }
}
