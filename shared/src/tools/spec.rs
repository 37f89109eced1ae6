//! What a page tool is, said once per tool: the types of that description ([`ToolSpec`]) and what
//! derives from it on [`PageTool`] (whether it changes the page, the number it names and a frame's own
//! number put in its place, what the session file keeps of it, how long the host waits for it, its
//! name for MCP clients and the model). The description of every tool is the table in `table.rs`.
//!
//! What it must not do: let a fact about a tool live anywhere else, or fall back to a default for a
//! tool nobody described. The table is one `match` with no catch-all, and each arm a [`ToolSpec`]
//! with every field given, so a new [`PageTool`] does not compile until every fact about it is decided.
//!
//! ```compile_fail,E0063
//! // A tool described without its road (or any other fact) does not compile …
//! use waymark_protocol::tools::{Kept, Road, ToolSpec};
//! pub enum Tool { Look {}, Leave {} }
//! waymark_protocol::tool_table! {
//!     Tool;
//!     Look {} => ToolSpec { road: Road::Read, number: None, kept: Kept::Whole, waits_ms: 0, mcp: None };
//!     Leave {} => ToolSpec { number: None, kept: Kept::Whole, waits_ms: 0, mcp: None };
//! }
//! ```
//!
//! ```compile_fail,E0004
//! // … nor does a tool left out of the table …
//! use waymark_protocol::tools::{Kept, Road, ToolSpec};
//! pub enum Tool { Look {}, Leave {} }
//! waymark_protocol::tool_table! {
//!     Tool;
//!     Look {} => ToolSpec { road: Road::Read, number: None, kept: Kept::Whole, waits_ms: 0, mcp: None };
//! }
//! ```
//!
//! ```
//! // … while the same tools, each with every fact, do.
//! use waymark_protocol::tools::{Kept, Road, ToolSpec};
//! pub enum Tool { Look {}, Leave {} }
//! waymark_protocol::tool_table! {
//!     Tool;
//!     Look {} => ToolSpec { road: Road::Read, number: None, kept: Kept::Whole, waits_ms: 0, mcp: None };
//!     Leave {} => ToolSpec { road: Road::Act, number: None, kept: Kept::Whole, waits_ms: 0, mcp: None };
//! }
//! assert!(Tool::every()[1].spec().road == Road::Act);
//! ```

use super::{FileData, PageTool};

/// Everything Waymark knows about one tool, read from the tool itself ([`PageTool::spec`]): `A` is
/// [`Shared`] for reading, [`Unique`] (inside this module) for putting a frame's number in and
/// withholding typed text.
pub struct ToolSpec<'a, A: Access = Shared> {
    /// How the host's gate lets it through; every tool but those that only read changes the page.
    pub road: Road,
    /// The number of the control it names, if it names one: the tab-wide number a caller gives, which
    /// the service worker replaces with the frame's own number when it sends the tool into a frame.
    pub number: Option<A::Ref<'a, u32>>,
    /// What the session file keeps of it when it is the action the user decides on.
    pub kept: Kept<'a, A>,
    /// How long it may wait in the page by its own arguments, in milliseconds (its default when the
    /// caller gives none): the host waits that long for it on top of the usual time for any tool.
    pub waits_ms: u32,
    /// How MCP clients and the model call it; `None` for the steps only Waymark itself takes.
    pub mcp: Option<&'static McpTool>,
}

/// How the host's gate lets a tool through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Road {
    /// It only reads (or moves the view, or the keyboard focus): it runs at once.
    Read,
    /// Closing banners: each banner's button is judged like a click, and only allowed ones are pressed.
    Banners { budget_ms: Option<u32> },
    /// One of the gate's own steps (pressing judged banner buttons): never asked for from outside.
    Internal,
    /// It acts on the page: previewed, judged on its effect, pinned.
    Act,
}

/// What the session file keeps of a tool.
pub enum Kept<'a, A: Access = Shared> {
    /// All of it: it carries nothing the user typed.
    Whole,
    /// All but this text, which the user types or chooses: kept as `[withheld]`.
    TextWithheld(A::Ref<'a, Option<String>>),
    /// All but these files' contents (read from disk only when the upload runs).
    FilesDropped(A::Ref<'a, Vec<FileData>>),
    /// As the action it stands for is kept.
    AsItsAction(A::Ref<'a, Box<PageTool>>),
}

/// How a tool is offered to MCP clients and to the agent's model.
#[derive(Debug)]
pub struct McpTool {
    /// The name callers use, such as `browser_overlay_act`.
    pub name: &'static str,
    /// What a person calls it, for clients that show tools (MCP's `title`).
    pub title: &'static str,
    pub description: &'static str,
    /// Its arguments: these, and no others.
    pub arguments: &'static [Field],
    /// The shape of its result's `data`, for the tools whose data is what they are called for (MCP's
    /// `outputSchema`; their results also carry it as `structuredContent`). A result has at least
    /// these properties: a newer extension may add others.
    pub output: Option<&'static Shape>,
}

/// One named value: an argument, or a property of a tool's data.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub name: &'static str,
    pub required: bool,
    pub shape: Shape,
    /// What it is, for the caller.
    pub about: Option<&'static str>,
}

/// The kinds of value an argument or a result's property may hold, with their bounds.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    Integer {
        min: Option<i64>,
        max: Option<i64>,
    },
    Text {
        /// Refused when empty or only spaces.
        non_empty: bool,
        /// The most characters it may have.
        max: Option<u32>,
    },
    /// One of these words.
    Choice(&'static [&'static str]),
    Boolean,
    List {
        of: &'static Shape,
        non_empty: bool,
        /// The most items it may have.
        max: Option<u32>,
    },
    /// An object with these properties (a result's: at least these).
    Object(&'static [Field]),
}

impl Field {
    /// A value the caller may leave out.
    pub const fn optional(name: &'static str, shape: Shape) -> Self {
        Self {
            name,
            required: false,
            shape,
            about: None,
        }
    }

    /// A value that must be there.
    pub const fn required(name: &'static str, shape: Shape) -> Self {
        Self {
            required: true,
            ..Self::optional(name, shape)
        }
    }

    /// The same, said what it is.
    pub const fn about(self, about: &'static str) -> Self {
        Self {
            about: Some(about),
            ..self
        }
    }
}

impl Shape {
    /// A control's (or a tab's) number: a whole number from 1.
    pub const NUMBER: Shape = Shape::Integer {
        min: Some(1),
        max: None,
    };
    /// How many of something: a whole number from 0.
    pub const COUNT: Shape = Shape::Integer {
        min: Some(0),
        max: None,
    };
    pub const TEXT: Shape = Shape::Text {
        non_empty: false,
        max: None,
    };
    pub const NON_EMPTY_TEXT: Shape = Shape::Text {
        non_empty: true,
        max: None,
    };
    /// A list of texts.
    pub const TEXTS: Shape = Shape::List {
        of: &Shape::TEXT,
        non_empty: false,
        max: None,
    };

    /// A whole number from `min` to `max`.
    pub const fn between(min: i64, max: i64) -> Shape {
        Shape::Integer {
            min: Some(min),
            max: Some(max),
        }
    }
}

/// Whether a [`ToolSpec`] lends the tool's values to read ([`Shared`]) or to change ([`Unique`]).
pub trait Access {
    type Ref<'a, T: ?Sized + 'a>;
}

/// A spec that reads the tool.
pub enum Shared {}

/// A spec that may change the tool (this module's own: a frame's number, withheld text).
pub enum Unique {}

impl Access for Shared {
    type Ref<'a, T: ?Sized + 'a> = &'a T;
}

impl Access for Unique {
    type Ref<'a, T: ?Sized + 'a> = &'a mut T;
}

/// How long [`PageTool::Wait`] waits for the page to settle when the caller does not say.
pub const WAIT_DEFAULT_MS: u32 = 5_000;

/// How long the tools that wait for a download wait when the caller does not say.
pub const DOWNLOAD_WAIT_DEFAULT_MS: u32 = 30_000;

/// Turns the table of every tool into [`ToolSpec`]s: for each tool its variant with an example value
/// for every field, then its spec, which may use those fields by name. It makes `spec` (the facts,
/// read), `spec_mut` (the same facts with the values lent to change) and `every` (one of each tool,
/// with the example values, in the table's order). Public only so that the module's doctests can show
/// that a tool left out, or a fact left out, does not compile.
///
/// `spec` and `spec_mut` are always inlined: a caller that reads one fact (the extension asks for a
/// tool's number, or whether it changes the page) then keeps only that fact, and the MCP descriptions
/// stay out of the wasm modules (without it, every frame loaded 3.4 KiB more, gzipped).
#[doc(hidden)]
#[macro_export]
macro_rules! tool_table {
    (
        $tool:ident;
        $( $variant:ident { $( $field:ident : $example:expr ),* $(,)? } => $spec:expr; )*
    ) => {
        impl $tool {
            /// Everything Waymark knows about this tool.
            #[allow(unused_variables)]
            #[inline(always)]
            pub fn spec(&self) -> $crate::tools::ToolSpec<'_> {
                match self {
                    $( $tool::$variant { $( $field ),* } => $spec, )*
                }
            }

            /// [`Self::spec`], with the tool's values lent to change.
            #[allow(unused_variables, dead_code)]
            #[inline(always)]
            pub(crate) fn spec_mut(&mut self) -> $crate::tools::ToolSpec<'_, $crate::tools::Unique> {
                match self {
                    $( $tool::$variant { $( $field ),* } => $spec, )*
                }
            }

            /// One of every tool, with example arguments, in the table's order.
            pub fn every() -> ::std::vec::Vec<$tool> {
                ::std::vec![ $( $tool::$variant { $( $field: $example ),* } ),* ]
            }
        }
    };
}

impl PageTool {
    /// Whether the tool can change the page. Page-changing tools run only after the host's policy gate;
    /// the service worker refuses them from anywhere else.
    pub fn changes_page(&self) -> bool {
        self.spec().road != Road::Read
    }

    /// The number of the control the tool names, if it names one (a key pressed without a number goes
    /// where the focus is, and has none; a tab's number is not a control's).
    pub fn number(&self) -> Option<u32> {
        self.spec().number.copied()
    }

    /// The same tool naming control `number` instead (a frame's own number for the tab-wide one); a
    /// tool that names no control is returned as it is.
    pub fn with_number(mut self, number: u32) -> Self {
        if let Some(named) = self.spec_mut().number {
            *named = number;
        }
        self
    }

    /// The tool as the session file keeps it: what the user typed or chose withheld, files' contents
    /// left out.
    pub fn as_kept(&self) -> PageTool {
        let mut kept = self.clone();
        kept.withhold();
        kept
    }

    fn withhold(&mut self) {
        match self.spec_mut().kept {
            Kept::Whole => {}
            Kept::TextWithheld(text) => {
                if text.is_some() {
                    *text = Some("[withheld]".into());
                }
            }
            Kept::FilesDropped(files) => files.clear(),
            Kept::AsItsAction(action) => action.withhold(),
        }
    }

    /// The name MCP clients and the model call it by; the gate's own steps, which they cannot call,
    /// are all `browser_tool`.
    pub fn mcp_name(&self) -> &'static str {
        self.spec().mcp.map_or("browser_tool", |mcp| mcp.name)
    }
}
