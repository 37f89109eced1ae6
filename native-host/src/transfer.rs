//! Files from this computer on their way into a page's file input ([`PageTool::Upload`]).
//!
//! The host reads the files named by `paths` only when the upload runs, which is after the policy gate
//! and the user's yes ([`crate::browser::Browser::run`] is the one place that calls [`read_files`]).
//! The browser drops a message from the host over 1 MiB, so the files travel to the extension in
//! pieces of [`PART_BYTES`] ([`parts`]), which the service worker joins before the tool runs.
//!
//! What it must not do: put a file's bytes anywhere but the message to the browser — not in a log, the
//! step log or the session. Errors name the file, never its contents; they are said in the user's
//! language ([`TransferError::say`], sizes in the language's units), and in English for logs.
//!
//! [`PageTool::Upload`]: waymark_protocol::PageTool::Upload

use std::path::{Path, PathBuf};

use base64::Engine as _;
use waymark_i18n::{say, Words};
use waymark_protocol::{FileData, FilePart};

/// The most one upload may carry, all files together. The worker hands the files to the page in one
/// message, whose limit is 64 MiB of JSON; base64 makes 32 MiB into about 43 MiB.
pub const MAX_UPLOAD_BYTES: u64 = 32 * 1024 * 1024;

/// Bytes of a file per piece: a multiple of 3, so each piece's base64 has no padding and the pieces'
/// texts join as they are; its base64 (680 KiB) leaves room for the rest of the message under 1 MiB.
pub const PART_BYTES: usize = 510 * 1024;

/// Characters of base64 per piece ([`PART_BYTES`] encoded).
const PART_CHARS: usize = PART_BYTES / 3 * 4;

/// A full path as the person would write one on this system.
const EXAMPLE_PATH: &str = if cfg!(windows) {
    r"C:\Users\me\Documents\cv.pdf"
} else {
    "/home/me/cv.pdf"
};

/// Why the files could not be read: typed, with the path as the person would write it; said in words
/// a person can act on by [`TransferError::say`] (and in English by `Display`, for logs).
#[derive(Debug)]
pub enum TransferError {
    NoPaths,
    NotAbsolute(String),
    Missing(String),
    Folder(String),
    NotRegular(String),
    Forbidden(String),
    /// `reason`: the system's words.
    Unreadable {
        path: String,
        reason: String,
    },
    /// One file over [`MAX_UPLOAD_BYTES`].
    TooBig {
        path: String,
        bytes: u64,
    },
    /// This many files, each within the limit, over it together.
    TogetherTooBig {
        files: usize,
        bytes: u64,
    },
}

impl TransferError {
    /// The error in `words`' language.
    pub fn say(&self, words: &Words) -> String {
        match self {
            TransferError::NoPaths => say!(words, "upload-no-paths"),
            TransferError::NotAbsolute(path) => {
                say!(
                    words,
                    "upload-not-absolute",
                    path = path.as_str(),
                    example = EXAMPLE_PATH
                )
            }
            TransferError::Missing(path) => say!(words, "upload-missing", path = path.as_str()),
            TransferError::Folder(path) => say!(words, "upload-folder", path = path.as_str()),
            TransferError::NotRegular(path) => say!(words, "upload-not-regular", path = path.as_str()),
            TransferError::Forbidden(path) => say!(words, "upload-forbidden", path = path.as_str()),
            TransferError::Unreadable { path, reason } => say!(
                words,
                "upload-unreadable",
                path = path.as_str(),
                reason = reason.as_str()
            ),
            TransferError::TooBig { path, bytes } => say!(
                words,
                "upload-too-big",
                path = path.as_str(),
                size = size_words(words, *bytes),
                limit = size_words(words, MAX_UPLOAD_BYTES)
            ),
            TransferError::TogetherTooBig { files, bytes } => say!(
                words,
                "upload-together-too-big",
                count = *files,
                size = size_words(words, *bytes),
                limit = size_words(words, MAX_UPLOAD_BYTES)
            ),
        }
    }
}

impl std::fmt::Display for TransferError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.say(&Words::english()))
    }
}

impl std::error::Error for TransferError {}

/// A file read for an upload: the name the page sees, its media type and its bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct Loaded {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for Loaded {
    // The contents never reach a log: only the size.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Loaded")
            .field("name", &self.name)
            .field("mime", &self.mime)
            .field("len", &self.bytes.len())
            .finish()
    }
}

/// Reads the files for an upload, checking each (a regular file, readable) and their total size
/// before reading any of them. `~/` at the start of a path means the home folder.
pub fn read_files(paths: &[String]) -> Result<Vec<Loaded>, TransferError> {
    check(paths)?
        .into_iter()
        .map(|(path, shown)| {
            let bytes = std::fs::read(&path).map_err(|e| io_error(&shown, &e))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| shown.clone());
            Ok(Loaded {
                mime: mime_for(&name).to_owned(),
                name,
                bytes,
            })
        })
        .collect()
}

/// Checks the files for an upload without reading them (each a regular file, their total size within
/// the limit): the gate does this before it asks the user, so nobody is asked about a file that is not
/// there. Gives each path as found and as shown to the user.
pub fn check(paths: &[String]) -> Result<Vec<(PathBuf, String)>, TransferError> {
    if paths.is_empty() {
        return Err(TransferError::NoPaths);
    }
    let mut checked = Vec::with_capacity(paths.len());
    let mut total = 0u64;
    for given in paths {
        let path = expand(given.trim())?;
        let shown = path.display().to_string();
        let meta = std::fs::metadata(&path).map_err(|e| io_error(&shown, &e))?;
        if meta.is_dir() {
            return Err(TransferError::Folder(shown));
        }
        if !meta.is_file() {
            return Err(TransferError::NotRegular(shown));
        }
        if meta.len() > MAX_UPLOAD_BYTES {
            return Err(TransferError::TooBig {
                path: shown,
                bytes: meta.len(),
            });
        }
        total += meta.len();
        checked.push((path, shown));
    }
    if total > MAX_UPLOAD_BYTES {
        return Err(TransferError::TogetherTooBig {
            files: paths.len(),
            bytes: total,
        });
    }
    Ok(checked)
}

/// The files as the pieces to send, in order: each file's pieces, file after file. An empty file is
/// one empty piece, so every file arrives.
pub fn parts(files: &[Loaded]) -> Vec<FilePart> {
    let encoded: Vec<FileData> = files
        .iter()
        .map(|f| FileData {
            name: f.name.clone(),
            mime: f.mime.clone(),
            base64: base64::engine::general_purpose::STANDARD.encode(&f.bytes),
        })
        .collect();
    parts_of(&encoded)
}

/// Pieces of files that are already base64 (cut at multiples of 4 characters, so each piece is whole
/// base64 on its own and they join as they are).
pub fn parts_of(files: &[FileData]) -> Vec<FilePart> {
    let mut out = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let text = file.base64.as_bytes();
        let mut start = 0;
        loop {
            let end = (start + PART_CHARS).min(text.len());
            out.push(FilePart {
                file: u32::try_from(i).unwrap_or(u32::MAX),
                name: file.name.clone(),
                mime: file.mime.clone(),
                // Base64 is ASCII, so any byte offset is a character boundary.
                base64: String::from_utf8_lossy(&text[start..end]).into_owned(),
            });
            start = end;
            if start >= text.len() {
                break;
            }
        }
    }
    out
}

/// The media type a browser would give a file of this name, from its extension.
pub fn mime_for(name: &str) -> &'static str {
    let extension = Path::new(name)
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    match extension.as_str() {
        "pdf" => "application/pdf",
        "txt" | "text" | "log" => "text/plain",
        "md" => "text/markdown",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "json" => "application/json",
        "xml" => "application/xml",
        "rtf" => "application/rtf",
        "doc" => "application/msword",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls" => "application/vnd.ms-excel",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt" => "application/vnd.ms-powerpoint",
        "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt" => "application/vnd.oasis.opendocument.text",
        "ods" => "application/vnd.oasis.opendocument.spreadsheet",
        "odp" => "application/vnd.oasis.opendocument.presentation",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "heic" => "image/heic",
        "bmp" => "image/bmp",
        "tif" | "tiff" => "image/tiff",
        "mp3" => "audio/mpeg",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "m4a" => "audio/mp4",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "mov" => "video/quicktime",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "tar" => "application/x-tar",
        "7z" => "application/x-7z-compressed",
        _ => "application/octet-stream",
    }
}

/// A path as given, with `~/` for the home folder; only full paths, since the host's own working
/// folder means nothing to the person naming the file.
fn expand(given: &str) -> Result<PathBuf, TransferError> {
    let path = match given.strip_prefix("~/") {
        Some(rest) => match std::env::var_os("HOME") {
            Some(home) => PathBuf::from(home).join(rest),
            None => PathBuf::from(given),
        },
        None => PathBuf::from(given),
    };
    if given.is_empty() || !path.is_absolute() {
        return Err(TransferError::NotAbsolute(given.to_owned()));
    }
    Ok(path)
}

fn io_error(shown: &str, error: &std::io::Error) -> TransferError {
    match error.kind() {
        std::io::ErrorKind::NotFound => TransferError::Missing(shown.to_owned()),
        std::io::ErrorKind::PermissionDenied => TransferError::Forbidden(shown.to_owned()),
        _ => TransferError::Unreadable {
            path: shown.to_owned(),
            reason: error.to_string(),
        },
    }
}

/// "512 bytes", "12 KB", "3.4 MB" ("3,4 МБ"), in `words`' language and units.
fn size_words(words: &Words, bytes: u64) -> String {
    const MIB: u64 = 1_024 * 1_024;
    match bytes {
        b if b < 1_024 => say!(words, "size-bytes", count = b),
        b if b < MIB => say!(words, "size-kb", count = b.div_ceil(1_024)),
        b => {
            // Tenths of a megabyte, rounded; the catalogue writes the decimal separator.
            let tenths = (b * 10 + MIB / 2) / MIB;
            say!(words, "size-mb", whole = tenths / 10, tenth = tenths % 10)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn path_of(dir: &tempfile::TempDir, name: &str) -> String {
        dir.path().join(name).display().to_string()
    }

    #[test]
    fn the_media_type_comes_from_the_extension_in_any_case() {
        assert_eq!(mime_for("CV.PDF"), "application/pdf");
        assert_eq!(mime_for("photo.jpeg"), "image/jpeg");
        assert_eq!(mime_for("notes.txt"), "text/plain");
        assert_eq!(
            mime_for("letter.docx"),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        );
        assert_eq!(mime_for("archive.tar.gz"), "application/gzip");
        assert_eq!(mime_for("README"), "application/octet-stream");
        assert_eq!(mime_for("strange.xyz"), "application/octet-stream");
    }

    #[test]
    fn a_file_is_read_with_its_bare_name_and_type() {
        let dir = dir();
        std::fs::write(dir.path().join("cv.pdf"), b"%PDF-1.4 hello").unwrap();
        let files = read_files(&[path_of(&dir, "cv.pdf")]).unwrap();
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].name, "cv.pdf");
        assert_eq!(files[0].mime, "application/pdf");
        assert_eq!(files[0].bytes, b"%PDF-1.4 hello");
        // Its Debug form tells the size, never the contents.
        assert!(!format!("{:?}", files[0]).contains("hello"));
    }

    #[test]
    fn errors_say_what_is_wrong_with_which_file() {
        let dir = dir();
        let missing = read_files(&[path_of(&dir, "nope.pdf")]).unwrap_err();
        assert!(matches!(missing, TransferError::Missing(_)));
        assert!(missing.to_string().starts_with("There is no file at "));
        assert!(missing.to_string().contains("nope.pdf"));

        let folder = read_files(&[dir.path().display().to_string()]).unwrap_err();
        assert!(matches!(folder, TransferError::Folder(_)), "{folder}");

        let relative = read_files(&["cv.pdf".to_owned()]).unwrap_err();
        assert!(matches!(relative, TransferError::NotAbsolute(_)));
        assert!(relative.to_string().contains("whole path"));

        assert!(matches!(read_files(&[]), Err(TransferError::NoPaths)));
    }

    #[cfg(unix)]
    #[test]
    fn a_device_or_pipe_is_not_a_regular_file() {
        let error = read_files(&["/dev/null".to_owned()]).unwrap_err();
        assert!(matches!(error, TransferError::NotRegular(_)), "{error}");
    }

    #[test]
    fn a_file_over_the_limit_is_refused_before_anything_is_read() {
        let dir = dir();
        let big = std::fs::File::create(dir.path().join("big.bin")).unwrap();
        big.set_len(MAX_UPLOAD_BYTES + 1).unwrap();
        let error = read_files(&[path_of(&dir, "big.bin")]).unwrap_err();
        assert!(matches!(error, TransferError::TooBig { .. }));
        assert!(error.to_string().contains("32.0 MB"), "{error}");
        assert!(error.to_string().contains("file chooser"), "{error}");

        // Two files under the limit each, over it together.
        for name in ["a.bin", "b.bin"] {
            let f = std::fs::File::create(dir.path().join(name)).unwrap();
            f.set_len(MAX_UPLOAD_BYTES / 2 + 1).unwrap();
        }
        let error = read_files(&[path_of(&dir, "a.bin"), path_of(&dir, "b.bin")]).unwrap_err();
        assert!(
            error.to_string().starts_with("Together, the 2 files are "),
            "{error}"
        );
    }

    #[test]
    fn every_error_is_said_in_russian_with_sizes_in_russian_units() {
        let russian = Words::new("ru");
        let path = "/home/me/cv.pdf";
        let errors = [
            TransferError::NoPaths,
            TransferError::NotAbsolute("cv.pdf".into()),
            TransferError::Missing(path.into()),
            TransferError::Folder(path.into()),
            TransferError::NotRegular(path.into()),
            TransferError::Forbidden(path.into()),
            TransferError::Unreadable {
                path: path.into(),
                reason: "Input/output error (os error 5)".into(),
            },
            TransferError::TooBig {
                path: path.into(),
                bytes: MAX_UPLOAD_BYTES + 1,
            },
            TransferError::TogetherTooBig {
                files: 2,
                bytes: 40 * 1024 * 1024,
            },
            TransferError::TogetherTooBig {
                files: 5,
                bytes: 40 * 1024 * 1024,
            },
        ];
        for error in &errors {
            let said = error.say(&russian);
            let values = [path, "cv.pdf", EXAMPLE_PATH, "Input/output error (os error 5)"];
            let english = crate::language::latin_words(&said, &values);
            assert!(english.is_empty(), "English in {said:?}: {english:?}");
            // Logs keep English.
            assert_ne!(error.to_string(), said);
        }
        assert_eq!(
            errors[2].say(&russian),
            "Файла /home/me/cv.pdf нет: проверьте путь и имя файла."
        );
        let too_big = errors[7].say(&russian);
        assert!(
            too_big.contains("весит 32,0 МБ") && too_big.contains("(32,0 МБ)"),
            "{too_big}"
        );
        assert!(errors[8]
            .say(&russian)
            .starts_with("Вместе 2 файла весят 40,0 МБ"));
        assert!(errors[9]
            .say(&russian)
            .starts_with("Вместе 5 файлов весят 40,0 МБ"));
        let sizes: Vec<String> = [1, 3, 5, 512, 2_000].map(|b| size_words(&russian, b)).into();
        assert_eq!(sizes, ["1 байт", "3 байта", "5 байт", "512 байт", "2 КБ"]);
        assert_eq!(size_words(&Words::english(), 1), "1 byte");
        assert_eq!(size_words(&Words::english(), 3_460_000), "3.3 MB");
    }

    #[test]
    fn pieces_fit_a_message_and_join_into_the_whole_file() {
        let bytes: Vec<u8> = (0..(PART_BYTES * 2 + 1234))
            .map(|i| (i * 7 % 256) as u8)
            .collect();
        let files = vec![
            Loaded {
                name: "big.pdf".into(),
                mime: "application/pdf".into(),
                bytes: bytes.clone(),
            },
            Loaded {
                name: "empty.txt".into(),
                mime: "text/plain".into(),
                bytes: Vec::new(),
            },
        ];
        let parts = parts(&files);
        assert_eq!(
            parts.len(),
            4,
            "three pieces of the big file, one of the empty one"
        );
        assert!(parts[..3].iter().all(|p| p.file == 0 && p.name == "big.pdf"));
        assert_eq!((parts[3].file, parts[3].base64.as_str()), (1, ""));
        for part in &parts {
            // With the rest of a run_tool message, well under the browser's 1 MiB.
            assert!(part.base64.len() <= 700 * 1024);
        }
        let joined: String = parts[..3].iter().map(|p| p.base64.as_str()).collect();
        let decoded = base64::engine::general_purpose::STANDARD.decode(joined).unwrap();
        assert_eq!(decoded, bytes);
    }

    #[test]
    fn a_whole_message_with_a_piece_stays_under_the_browser_limit() {
        let bytes = vec![0xffu8; PART_BYTES];
        let files = vec![Loaded {
            name: "x".repeat(255),
            mime: "application/octet-stream".into(),
            bytes,
        }];
        let part = parts(&files).remove(0);
        let message = waymark_protocol::ToExtension::RunTool(waymark_protocol::RunTool {
            id: u64::MAX,
            tab_id: Some(i32::MAX),
            tool: waymark_protocol::PageTool::Upload {
                index: 1,
                paths: vec![format!("/home/someone/{}", "x".repeat(255))],
                files: Vec::new(),
            },
            pin: Some(waymark_protocol::Pin {
                tab: i32::MAX,
                frame: i32::MAX,
                document: "0".repeat(32),
                element: Some(u64::MAX),
            }),
            part: Some(part),
            guard: None,
        });
        let len = serde_json::to_vec(&message).unwrap().len();
        assert!(len < waymark_protocol::MAX_MESSAGE_TO_BROWSER, "{len}");
    }
}
