//! Syntax tree of an HSAIL module (PRM §19.2), with byte spans.
//!
//! The tree keeps source order exactly, including comments, because BRIG
//! entry order follows it. Names are slices of the source (`&'a str`), so
//! building the tree allocates only the vectors. Enum-like fields
//! (segments, types, rounding modes, …) already hold their BRIG numbers.

/// A byte range in the source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    /// Span from `start` to `end`.
    pub fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }
}

/// A name as written, with its sigil (`&f`, `%x`, `@l`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name<'a> {
    pub text: &'a str,
    pub span: Span,
}

/// A whole module: its top-level statements in source order.
#[derive(Debug, Clone, Default)]
pub struct Module<'a> {
    pub items: Vec<Item<'a>>,
}

/// A top-level statement.
#[derive(Debug, Clone)]
pub enum Item<'a> {
    Comment(Comment<'a>),
    Module(ModuleHeader<'a>),
    Extension(Extension),
    Pragma(Pragma<'a>),
    Control(Control),
    Loc(Loc),
    Executable(Executable<'a>),
    Variable(Variable<'a>),
    Fbarrier(Fbarrier<'a>),
}

/// A comment at statement level, as written (`// …` or `/* … */`). A `//`
/// comment becomes one `BrigDirectiveComment`; a `/* */` comment one per
/// source line (see `lower`).
#[derive(Debug, Clone)]
pub struct Comment<'a> {
    pub text: &'a str,
    pub span: Span,
}

/// `module &name:major:minor:$profile:$model:$round;`
#[derive(Debug, Clone)]
pub struct ModuleHeader<'a> {
    pub name: Name<'a>,
    pub major: u32,
    pub minor: u32,
    pub profile: u8,
    pub machine_model: u8,
    pub default_round: u8,
    pub span: Span,
}

/// `extension "name";`
#[derive(Debug, Clone)]
pub struct Extension {
    pub name: Vec<u8>,
    pub span: Span,
}

/// `pragma op, op, …;`
#[derive(Debug, Clone)]
pub struct Pragma<'a> {
    pub operands: Vec<Operand<'a>>,
    pub span: Span,
}

/// A control directive with its integer (or WAVESIZE) operands.
#[derive(Debug, Clone)]
pub struct Control {
    pub control: u16,
    /// `None` stands for `WAVESIZE`.
    pub values: Vec<(Option<u64>, Span)>,
    pub span: Span,
}

/// `loc line [column] ["file"];`
#[derive(Debug, Clone)]
pub struct Loc {
    pub line: u32,
    pub column: u32,
    pub file: Option<Vec<u8>>,
    pub span: Span,
}

/// Which kind of executable a declaration or definition is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExeKind {
    Kernel,
    Function,
    IndirectFunction,
    Signature,
}

/// A kernel, function, indirect function or signature.
#[derive(Debug, Clone)]
pub struct Executable<'a> {
    pub kind: ExeKind,
    pub decl: bool,
    pub linkage: Option<u8>,
    pub name: Name<'a>,
    pub out_args: Vec<Variable<'a>>,
    pub in_args: Vec<Variable<'a>>,
    /// `None` for declarations and signatures.
    pub body: Option<Vec<Stmt<'a>>>,
    pub span: Span,
}

/// A variable declaration or definition (also formal and actual arguments).
#[derive(Debug, Clone)]
pub struct Variable<'a> {
    pub decl: bool,
    pub linkage: Option<u8>,
    pub alloc_agent: bool,
    pub align: Option<u8>,
    pub is_const: bool,
    pub segment: u8,
    /// Element type (never an array type).
    pub ty: u16,
    /// Empty for unnamed signature arguments.
    pub name: Option<Name<'a>>,
    /// `None`: scalar; `Some(None)`: `[]`; `Some(Some(n))`: `[n]`.
    pub dim: Option<Option<u64>>,
    pub init: Option<Init<'a>>,
    pub span: Span,
}

/// A variable initializer.
#[derive(Debug, Clone)]
pub enum Init<'a> {
    /// A constant (scalar, typed packed constant or typed array).
    Imm(Imm<'a>),
    /// An aggregate `{ … }`.
    Aggregate(Vec<AggElem<'a>>, Span),
    /// An image or sampler initializer, or an array of them.
    Opaque(Opaque, Span),
}

/// An element of an aggregate constant.
#[derive(Debug, Clone)]
pub enum AggElem<'a> {
    Align(u8, Span),
    Imm(Imm<'a>),
    Opaque(Opaque, Span),
}

/// Image or sampler constant(s).
#[derive(Debug, Clone)]
pub struct Opaque {
    /// `BRIG_TYPE_RWIMG`, …, or `BRIG_TYPE_SAMP`.
    pub ty: u16,
    /// True when written as `type[](…)`.
    pub array: bool,
    pub elems: Vec<OpaqueProps>,
}

/// Properties of one image or sampler constant.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpaqueProps {
    pub ty: u16,
    pub geometry: u8,
    pub channel_order: u8,
    pub channel_type: u8,
    pub width: u64,
    pub height: u64,
    pub depth: u64,
    pub array: u64,
    pub coord: u8,
    pub filter: u8,
    pub addressing: u8,
}

/// `fbarrier &name;`
#[derive(Debug, Clone)]
pub struct Fbarrier<'a> {
    pub decl: bool,
    pub linkage: Option<u8>,
    pub name: Name<'a>,
    pub span: Span,
}

/// A statement inside a code block.
#[derive(Debug, Clone)]
pub enum Stmt<'a> {
    Comment(Comment<'a>),
    Label(Name<'a>),
    Pragma(Pragma<'a>),
    Loc(Loc),
    Control(Control),
    Fbarrier(Fbarrier<'a>),
    Variable(Variable<'a>),
    ArgBlock(ArgBlock<'a>),
    Inst(Inst<'a>),
}

/// `{ … }` argument block inside a code block.
#[derive(Debug, Clone)]
pub struct ArgBlock<'a> {
    pub stmts: Vec<Stmt<'a>>,
    pub span: Span,
}

/// Decoded suffixes of an instruction mnemonic.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mnemonic {
    pub opcode: u16,
    pub ftz: bool,
    pub round: Option<u8>,
    pub pack: Option<u8>,
    /// Up to three types, in order (destination, source, coordinate).
    pub types: [u16; 3],
    pub ntypes: u8,
    pub vector: Option<u8>,
    pub segment: Option<u8>,
    pub align: Option<u8>,
    pub is_const: bool,
    pub equiv: Option<u8>,
    pub width: Option<u8>,
    pub compare: Option<u8>,
    pub atomic_op: Option<u8>,
    pub memory_order: Option<u8>,
    pub memory_scope: Option<u8>,
    pub geometry: Option<u8>,
    pub image_query: Option<u8>,
    pub sampler_query: Option<u8>,
    pub nonull: bool,
}

impl Mnemonic {
    /// The `i`-th type suffix, or `BRIG_TYPE_NONE`.
    pub fn ty(&self, i: usize) -> u16 {
        if i < self.ntypes as usize {
            self.types[i]
        } else {
            0
        }
    }
}

/// One instruction.
#[derive(Debug, Clone)]
pub struct Inst<'a> {
    pub mnemonic: Mnemonic,
    pub operands: Vec<Operand<'a>>,
    pub span: Span,
}

/// A register `$c0`, `$s1`, `$d2`, `$q3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reg {
    /// `BRIG_REGISTER_KIND_*`.
    pub kind: u16,
    pub num: u16,
    pub span: Span,
}

/// A numeric constant as written (converted when its type is known).
#[derive(Debug, Clone)]
pub struct Imm<'a> {
    pub neg: bool,
    pub value: ImmValue<'a>,
    pub span: Span,
}

/// The literal part of a constant.
#[derive(Debug, Clone)]
pub enum ImmValue<'a> {
    Int(u64),
    F16(u16),
    F32(u32),
    F64(u64),
    /// A typed constant `u8x4(1,2,3,4)` or `f32(1.0f)`.
    Typed(u16, Vec<Imm<'a>>),
    /// A typed array constant `u32[](1, 2, 3)`.
    Array(u16, Vec<Imm<'a>>),
    /// Placeholder for a constant whose text could not be read.
    Bad(&'a str),
}

/// An instruction or pragma operand.
#[derive(Debug, Clone)]
pub enum Operand<'a> {
    Reg(Reg),
    /// `($s1, $s2, …)`.
    Vector(Vec<Operand<'a>>, Span),
    Imm(Imm<'a>),
    WaveSize(Span),
    /// `[&sym][$reg+off]` in any of its forms.
    Address {
        symbol: Option<Name<'a>>,
        reg: Option<Reg>,
        offset: i64,
        span: Span,
    },
    Label(Name<'a>),
    /// A bare `&name` or `%name` (function, signature, fbarrier, variable).
    Ident(Name<'a>),
    /// `[@a, @b]` jump table.
    LabelList(Vec<Name<'a>>, Span),
    /// `(%a, %b)` call argument list.
    ArgList(Vec<Name<'a>>, Span),
    /// `[&f, &g]` call table.
    FuncList(Vec<Name<'a>>, Span),
    /// A string (pragmas only).
    Str(Vec<u8>, Span),
    /// An image/sampler constant (pragmas only).
    Opaque(Opaque, Span),
    /// An aggregate constant (pragmas only).
    Aggregate(Vec<AggElem<'a>>, Span),
}

impl Operand<'_> {
    /// Source span of the operand.
    pub fn span(&self) -> Span {
        match self {
            Operand::Reg(r) => r.span,
            Operand::Imm(i) => i.span,
            Operand::Label(n) | Operand::Ident(n) => n.span,
            Operand::Vector(_, s)
            | Operand::WaveSize(s)
            | Operand::Address { span: s, .. }
            | Operand::LabelList(_, s)
            | Operand::ArgList(_, s)
            | Operand::FuncList(_, s)
            | Operand::Str(_, s)
            | Operand::Opaque(_, s)
            | Operand::Aggregate(_, s) => *s,
        }
    }
}
