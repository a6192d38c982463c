//! Layer 1: structural BRIG checks (PRM 18).
//!
//! `BrigModule::parse` already checked the container and that every entry
//! walk ends exactly at its section end. Here every offset held by a field
//! is checked: it names an entry start in the right section, of a kind
//! allowed at that place; operand and code lists are well formed; strings
//! are UTF-8; constants have as many bytes as their type needs; the
//! module-level chain (`nextModuleEntry`, `firstInArg`,
//! `firstCodeBlockEntry`) is consistent. After this layer passes, later
//! layers may resolve any offset without handling errors.

use brig::{BrigKind, BrigSectionIndex, Code, CodeOffset, DataOffset, Operand, OperandOffset};

use super::ValidationError;
use super::index::{Index, MAX_INST_OPERANDS};

const RULE: &str = "PRM 18";

struct Cx<'m, 'a> {
    m: &'m Index<'a>,
    errors: &'m mut Vec<ValidationError>,
}

impl Cx<'_, '_> {
    fn err(&mut self, section: BrigSectionIndex, offset: u32, msg: String) {
        self.errors
            .push(ValidationError::at(RULE, section, offset, msg));
    }

    fn code_err(&mut self, at: CodeOffset, msg: String) {
        self.err(BrigSectionIndex::CODE, at.get(), msg);
    }

    fn op_err(&mut self, at: OperandOffset, msg: String) {
        self.err(BrigSectionIndex::OPERAND, at.get(), msg);
    }

    /// A name or string field: an `hsa_data` entry holding UTF-8 text.
    fn check_string(&mut self, section: BrigSectionIndex, at: u32, field: &str, s: DataOffset) {
        if let Err(e) = self.m.string(s) {
            self.err(section, at, format!("{field}: {}", e));
        }
    }

    fn check_opt_string(&mut self, section: BrigSectionIndex, at: u32, field: &str, s: DataOffset) {
        if !s.is_none() {
            self.check_string(section, at, field, s);
        }
    }

    /// A code offset field that may point one past the last entry.
    fn check_code_pos(&mut self, at: CodeOffset, field: &str, target: CodeOffset) {
        if !self.m.is_code_entry(target) && target != self.m.code_end() {
            self.code_err(
                at,
                format!("{field} ({target}) is not an hsa_code entry start or the section end"),
            );
        }
    }

    /// An operand list; every element must be an operand of an allowed
    /// kind. Returns the number of elements (0 for a malformed list).
    fn check_operand_list(
        &mut self,
        section: BrigSectionIndex,
        at: u32,
        field: &str,
        list: DataOffset,
        allowed: impl Fn(BrigKind) -> bool,
    ) -> usize {
        let items = match self.m.raw_list(list) {
            Ok(items) => items,
            Err(e) => {
                self.err(section, at, format!("{field}: {e}"));
                return 0;
            }
        };
        let mut count = 0;
        for (i, o) in items.enumerate() {
            count = i + 1;
            let o = OperandOffset::new(o);
            match self.m.operand_kind(o) {
                Ok(k) if allowed(k) => {}
                Ok(k) => self.err(
                    section,
                    at,
                    format!("{field}: element {i} ({o}) has kind {k:?}, not allowed here"),
                ),
                Err(e) => self.err(section, at, format!("{field}: element {i}: {e}")),
            }
        }
        count
    }
}

/// The kind of an operand entry (also for unknown kinds).
pub(crate) fn kind_of_operand(o: &Operand<'_>) -> BrigKind {
    match o {
        Operand::Address(e) => e.base.kind,
        Operand::Align(e) => e.base.kind,
        Operand::CodeList(e) => e.base.kind,
        Operand::CodeRef(e) => e.base.kind,
        Operand::ConstantBytes(e) => e.base.kind,
        Operand::ConstantImage(e) => e.base.kind,
        Operand::ConstantOperandList(e) => e.base.kind,
        Operand::ConstantSampler(e) => e.base.kind,
        Operand::OperandList(e) => e.base.kind,
        Operand::Register(e) => e.base.kind,
        Operand::String(e) => e.base.kind,
        Operand::Wavesize(e) => e.base.kind,
        Operand::Unknown(b) => b.kind,
    }
}

fn any_operand(k: BrigKind) -> bool {
    k.is_operand() && k != BrigKind::OPERAND_RESERVED
}

/// Elements of an instruction's operand list: anything but nothing
/// reserved.
fn inst_operand(k: BrigKind) -> bool {
    any_operand(k) && k != BrigKind::OPERAND_CONSTANT_OPERAND_LIST
}

/// Elements of a vector operand (`BrigOperandOperandList`): registers,
/// immediates, WAVESIZE.
fn vector_element(k: BrigKind) -> bool {
    matches!(
        k,
        BrigKind::OPERAND_REGISTER | BrigKind::OPERAND_CONSTANT_BYTES | BrigKind::OPERAND_WAVESIZE
    )
}

/// Elements of an aggregate constant: any constant but another aggregate.
fn aggregate_element(k: BrigKind) -> bool {
    matches!(
        k,
        BrigKind::OPERAND_CONSTANT_BYTES
            | BrigKind::OPERAND_ALIGN
            | BrigKind::OPERAND_CONSTANT_IMAGE
            | BrigKind::OPERAND_CONSTANT_SAMPLER
    )
}

/// Initializers of variables: constants.
fn is_constant(k: BrigKind) -> bool {
    aggregate_element(k) || k == BrigKind::OPERAND_CONSTANT_OPERAND_LIST
}

/// Operands of control directives: immediates and WAVESIZE.
fn control_operand(k: BrigKind) -> bool {
    matches!(
        k,
        BrigKind::OPERAND_CONSTANT_BYTES | BrigKind::OPERAND_WAVESIZE
    )
}

/// Operands of pragmas (PRM 13.3): strings, constants, identifiers
/// (code references and registers), WAVESIZE.
fn pragma_operand(k: BrigKind) -> bool {
    matches!(
        k,
        BrigKind::OPERAND_CONSTANT_BYTES
            | BrigKind::OPERAND_WAVESIZE
            | BrigKind::OPERAND_STRING
            | BrigKind::OPERAND_CODE_REF
            | BrigKind::OPERAND_REGISTER
            | BrigKind::OPERAND_CONSTANT_IMAGE
            | BrigKind::OPERAND_CONSTANT_SAMPLER
            | BrigKind::OPERAND_CONSTANT_OPERAND_LIST
    )
}

/// Checks every entry of `hsa_code` and `hsa_operand` and the module-level
/// chain; pushes one error per bad field.
/// With `parallel`, the code and operand entries are checked on two
/// threads (same errors, same order).
pub fn check_structure(m: &Index<'_>, errors: &mut Vec<ValidationError>, parallel: bool) {
    if parallel {
        // The code and operand sections are independent: check them on two
        // threads, keeping the sequential order of the errors.
        // If no thread can be started, the same work runs here.
        let mut op_errors = std::thread::scope(|s| {
            let ops = std::thread::Builder::new().spawn_scoped(s, || {
                let mut op_errors = Vec::new();
                check_operand_entries(m, &mut op_errors);
                op_errors
            });
            check_code_entries(m, errors);
            match ops {
                Ok(t) => t.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                Err(_) => {
                    let mut op_errors = Vec::new();
                    check_operand_entries(m, &mut op_errors);
                    op_errors
                }
            }
        });
        errors.append(&mut op_errors);
    } else {
        check_code_entries(m, errors);
        check_operand_entries(m, errors);
    }
    if errors.is_empty() {
        check_module_chain(&mut Cx { m, errors });
    }
}

/// The fast form of [`check_structure`] for a module whose code blocks
/// `covered` (sorted, disjoint `[start, end)` ranges of `hsa_code`) layer
/// 3 walks: the operand lists of the instructions in them are left out,
/// layer 3 checks them as it reads them (see
/// [`Index::fill_inst_operands`]). Returns whether nothing is wrong; when
/// something is, [`check_structure`] is to be run for the errors.
pub fn quick_check(m: &Index<'_>, covered: &[(CodeOffset, CodeOffset)]) -> bool {
    let mut errors = Vec::new();
    let mut cx = Cx {
        m,
        errors: &mut errors,
    };
    let mut ranges = covered.iter().peekable();
    for &o in m.code_offsets() {
        // Instructions in walked code blocks are skipped before decoding.
        let at = CodeOffset::new(o);
        if m.code_kind_at_start(o).is_some_and(BrigKind::is_inst) {
            while ranges.next_if(|r| r.1 <= at).is_some() {}
            if ranges.peek().is_some_and(|r| r.0 <= at) {
                continue;
            }
        }
        // (An entry that does not decode is skipped, as in
        // `check_code_entries`; the walk of `BrigModule` rules it out.)
        if let Ok(c) = m.code(at) {
            check_code_entry(&mut cx, at, c);
        }
    }
    if !cx.errors.is_empty() {
        return false;
    }
    let bytes = m.operand_section();
    for &o in m.operand_offsets() {
        // Registers (most operands): only the register kind to check.
        let at = o as usize;
        if let Some(h) = bytes.get(at + 2..at + 6)
            && u16::from_le_bytes([h[0], h[1]]) == BrigKind::OPERAND_REGISTER.raw()
        {
            if u16::from_le_bytes([h[2], h[3]]) > 3 {
                return false;
            }
            continue;
        }
        let at = OperandOffset::new(o);
        // (An entry that does not decode is skipped, as in
        // `check_operand_entries`; the walk of `BrigModule` rules it out.)
        if let Ok(op) = m.operand(at) {
            check_operand_entry(&mut cx, at, op);
        }
        if !cx.errors.is_empty() {
            return false;
        }
    }
    check_module_chain(&mut cx);
    cx.errors.is_empty()
}

/// Whether the module-level chain is consistent (the part of
/// [`quick_check`] that a module from our own writer still gets).
pub fn chain_ok(m: &Index<'_>) -> bool {
    let mut errors = Vec::new();
    check_module_chain(&mut Cx {
        m,
        errors: &mut errors,
    });
    errors.is_empty()
}

/// Whether `k` may be an element of an instruction's operand list (what
/// [`check_structure`] requires of every element).
pub fn is_inst_operand_kind(k: BrigKind) -> bool {
    inst_operand(k)
}

fn check_code_entries(m: &Index<'_>, errors: &mut Vec<ValidationError>) {
    let mut cx = Cx { m, errors };
    for (at, c) in m.code_entries() {
        check_code_entry(&mut cx, at, c);
    }
}

fn check_operand_entries(m: &Index<'_>, errors: &mut Vec<ValidationError>) {
    let mut cx = Cx { m, errors };
    for (at, o) in m.operand_entries() {
        check_operand_entry(&mut cx, at, o);
    }
}

fn check_code_entry(cx: &mut Cx<'_, '_>, at: CodeOffset, c: Code<'_>) {
    let code = BrigSectionIndex::CODE;
    let a = at.get();
    check_directive_fields(cx, at, c);
    match c {
        Code::Unknown(b) => cx.code_err(
            at,
            format!(
                "entry kind {:?} is not an hsa_code kind (PRM 18.3.15)",
                b.kind
            ),
        ),
        Code::DirectiveComment(d) => {
            cx.check_string(code, a, "comment name", d.name);
            // PRM 18.5.1.3: the text of the comment, including the `//`.
            if cx.m.string(d.name).is_ok_and(|s| !s.starts_with("//")) {
                cx.code_err(
                    at,
                    "a comment's text must start with // (PRM 18.5.1.3)".to_owned(),
                );
            }
        }
        Code::DirectiveExtension(d) => cx.check_string(code, a, "extension name", d.name),
        Code::DirectiveLabel(d) => cx.check_string(code, a, "label name", d.name),
        Code::DirectiveFbarrier(d) => cx.check_string(code, a, "fbarrier name", d.name),
        Code::DirectiveModule(d) => cx.check_string(code, a, "module name", d.name),
        Code::DirectiveLoc(d) => cx.check_opt_string(code, a, "loc filename", d.filename),
        Code::DirectiveControl(d) => {
            cx.check_operand_list(code, a, "control operands", d.operands, control_operand);
        }
        Code::DirectivePragma(d) => {
            cx.check_operand_list(code, a, "pragma operands", d.operands, pragma_operand);
        }
        Code::DirectiveVariable(d) => {
            cx.check_string(code, a, "variable name", d.name);
            if let Some(init) = d.init.non_null() {
                match cx.m.operand(init) {
                    Ok(o) if is_constant(kind_of_operand(&o)) => {}
                    Ok(o) => cx.code_err(
                        at,
                        format!(
                            "variable initializer {init} has kind {:?}, not a constant",
                            kind_of_operand(&o)
                        ),
                    ),
                    Err(e) => cx.code_err(at, format!("variable initializer: {e}")),
                }
            }
        }
        Code::DirectiveFunction(d)
        | Code::DirectiveKernel(d)
        | Code::DirectiveIndirectFunction(d)
        | Code::DirectiveSignature(d) => {
            cx.check_string(code, a, "executable name", d.name);
            cx.check_code_pos(at, "firstInArg", d.first_in_arg);
            cx.check_code_pos(at, "firstCodeBlockEntry", d.first_code_block_entry);
            cx.check_code_pos(at, "nextModuleEntry", d.next_module_entry);
        }
        Code::DirectiveArgBlockEnd(_)
        | Code::DirectiveArgBlockStart(_)
        | Code::DirectiveNone(_) => {}
        _ => {
            if let Some(i) = c.inst() {
                let n = cx.check_operand_list(
                    code,
                    a,
                    "instruction operands",
                    i.operands,
                    inst_operand,
                );
                if n > MAX_INST_OPERANDS {
                    cx.code_err(
                        at,
                        format!("an instruction has more than {MAX_INST_OPERANDS} operands"),
                    );
                }
            }
        }
    }
}

fn check_operand_entry(cx: &mut Cx<'_, '_>, at: OperandOffset, o: Operand<'_>) {
    let opnd = BrigSectionIndex::OPERAND;
    let a = at.get();
    check_operand_fields(cx, at);
    match o {
        Operand::Unknown(b) => cx.op_err(
            at,
            format!(
                "entry kind {:?} is not an hsa_operand kind (PRM 18.3.15)",
                b.kind
            ),
        ),
        Operand::Address(e) => {
            if let Some(sym) = e.symbol.non_null() {
                match cx.m.code(sym) {
                    Ok(Code::DirectiveVariable(_)) => {}
                    Ok(c) => cx.op_err(
                        at,
                        format!("address symbol {sym} is a {:?}, not a variable", c.kind()),
                    ),
                    Err(e) => cx.op_err(at, format!("address symbol: {e}")),
                }
            }
            if let Some(r) = e.reg.non_null() {
                match cx.m.operand(r) {
                    Ok(Operand::Register(_)) => {}
                    Ok(o) => cx.op_err(
                        at,
                        format!(
                            "address register {r} has kind {:?}, not a register",
                            kind_of_operand(&o)
                        ),
                    ),
                    Err(e) => cx.op_err(at, format!("address register: {e}")),
                }
            }
        }
        Operand::CodeList(e) => {
            if let Err(e) = cx.m.check_code_list(e.elements) {
                cx.op_err(at, format!("code list: {e}"));
            }
        }
        Operand::CodeRef(e) => {
            if let Err(e) = cx.m.code(e.ref_) {
                cx.op_err(at, format!("code reference: {e}"));
            }
        }
        Operand::ConstantBytes(e) => match cx.m.data_bytes(e.bytes) {
            Err(err) => cx.op_err(at, format!("constant bytes: {err}")),
            Ok(b) => check_constant_size(cx, at, e.type_, b.len()),
        },
        Operand::ConstantOperandList(e) => {
            cx.check_operand_list(opnd, a, "aggregate elements", e.elements, aggregate_element);
        }
        Operand::OperandList(e) => {
            cx.check_operand_list(opnd, a, "vector elements", e.elements, vector_element);
        }
        Operand::Register(r) => {
            if r.reg_kind.raw() > 3 {
                cx.op_err(at, format!("unknown register kind {}", r.reg_kind.raw()));
            }
        }
        Operand::String(e) => cx.check_string(opnd, a, "string operand", e.string),
        // PRM 18.6.7, 18.6.9: the type of an image or sampler constant.
        Operand::ConstantImage(e) => {
            if !matches!(
                e.type_,
                brig::BrigType::ROIMG | brig::BrigType::WOIMG | brig::BrigType::RWIMG
            ) {
                let t = e.type_.raw();
                cx.op_err(
                    at,
                    format!(
                        "an image constant has type {t}, must be roimg, woimg or rwimg (PRM 18.6.7)"
                    ),
                );
            }
        }
        Operand::ConstantSampler(e) => {
            if e.type_ != brig::BrigType::SAMP {
                let t = e.type_.raw();
                cx.op_err(
                    at,
                    format!("a sampler constant has type {t}, must be samp (PRM 18.6.9)"),
                );
            }
        }
        Operand::Align(_) | Operand::Wavesize(_) => {}
    }
}

/// `BrigOperandConstantBytes`: the byte count must be the type's size (an
/// array: a whole number of elements).
fn check_constant_size(cx: &mut Cx<'_, '_>, at: OperandOffset, ty: brig::BrigType, len: usize) {
    let Some(size) = ty.byte_size() else {
        cx.op_err(at, format!("constant has unknown type {:#x}", ty.raw()));
        return;
    };
    let size = size as usize;
    let ok = if ty.is_array() {
        size != 0 && len.is_multiple_of(size)
    } else {
        len == size
    };
    if !ok {
        cx.op_err(
            at,
            format!(
                "constant of type {} has {len} bytes, expected {}{size}",
                ty.text().unwrap_or_default(),
                if ty.is_array() { "a multiple of " } else { "" }
            ),
        );
    }
}

/// Walks the module-level entries: the first is the module directive;
/// executables skip to `nextModuleEntry`, their arguments come right after
/// them and their code block from `firstCodeBlockEntry`.
fn check_module_chain(cx: &mut Cx<'_, '_>) {
    let m = cx.m;
    let end = m.code_end();
    let Some(mut at) = m.first_code() else {
        return;
    };
    while at < end {
        let Ok(c) = m.code(at) else { return };
        let Ok(next) = m.next_code(at) else { return };
        let Some(e) = c.executable() else {
            at = next;
            continue;
        };
        // Arguments: out_arg_count + in_arg_count variables after `at`.
        let mut pos = next;
        let total = u32::from(e.out_arg_count.get()) + u32::from(e.in_arg_count.get());
        for i in 0..total {
            if i == u32::from(e.out_arg_count.get())
                && e.in_arg_count.get() > 0
                && e.first_in_arg != pos
            {
                cx.code_err(
                    at,
                    format!("firstInArg is {}, expected {pos}", e.first_in_arg),
                );
            }
            match m.code(pos) {
                Ok(Code::DirectiveVariable(_)) => {}
                _ => {
                    cx.code_err(
                        at,
                        format!("argument {i} ({pos}) is not a variable directive"),
                    );
                    return;
                }
            }
            match m.next_code(pos) {
                Ok(n) => pos = n,
                Err(_) => return,
            }
        }
        let fcb = e.first_code_block_entry;
        let nme = e.next_module_entry;
        if nme <= at {
            cx.code_err(
                at,
                format!("nextModuleEntry {nme} does not follow the directive"),
            );
            return;
        }
        if fcb < pos || fcb > nme {
            cx.code_err(
                at,
                format!(
                    "firstCodeBlockEntry {fcb} is not between the end of the arguments ({pos}) \
                     and nextModuleEntry ({nme})"
                ),
            );
            return;
        }
        let is_def = e
            .modifier
            .contains(brig::BrigExecutableModifierMask::DEFINITION);
        if !is_def && fcb != nme {
            cx.code_err(at, "a declaration has a code block".to_owned());
        }
        at = nme;
    }
}

// ---------------------------------------------------------------------
// Field values (PRM 18.3 enumerations and bit masks, reserved fields).

/// A BRIG enumeration or bit mask field type, with the values PRM 18.3
/// defines for it. Values an implementation may define (128 and up for
/// some enumerations, `FIRST_USER_DEFINED`) are not defined by this one.
trait Defined: Copy {
    /// The spec's name of the enumeration, with its PRM section.
    const WHAT: &'static str;
    /// Whether PRM 18.3 defines the value.
    fn defined(self) -> bool;
}

/// Implements [`Defined`] for enumerations (`enum`: every named value but
/// `FIRST_USER_DEFINED`) and bit masks (`mask`: no undefined bit set).
macro_rules! defined {
    (enum $($t:ident $what:literal),* $(,)?) => {$(
        impl Defined for brig::$t {
            const WHAT: &'static str = $what;
            fn defined(self) -> bool {
                self.is_known() && self.short_name() != Some("FIRST_USER_DEFINED")
            }
        }
    )*};
    (mask $($t:ident $what:literal),* $(,)?) => {$(
        impl Defined for brig::$t {
            const WHAT: &'static str = $what;
            fn defined(self) -> bool {
                self.unknown_bits() == 0
            }
        }
    )*};
}

defined!(enum
    BrigAlignment "BrigAlignment (PRM 18.3.2)",
    BrigAllocation "BrigAllocation (PRM 18.3.3)",
    BrigAtomicOperation "BrigAtomicOperation (PRM 18.3.5)",
    BrigCompareOperation "BrigCompareOperation (PRM 18.3.7)",
    BrigControlDirective "BrigControlDirective (PRM 18.3.8)",
    BrigImageChannelOrder "BrigImageChannelOrder (PRM 18.3.11)",
    BrigImageChannelType "BrigImageChannelType (PRM 18.3.12)",
    BrigImageGeometry "BrigImageGeometry (PRM 18.3.13)",
    BrigImageQuery "BrigImageQuery (PRM 18.3.14)",
    BrigLinkage "BrigLinkage (PRM 18.3.16)",
    BrigMachineModel "BrigMachineModel (PRM 18.3.17)",
    BrigMemoryOrder "BrigMemoryOrder (PRM 18.3.19)",
    BrigMemoryScope "BrigMemoryScope (PRM 18.3.20)",
    BrigPack "BrigPack (PRM 18.3.23)",
    BrigProfile "BrigProfile (PRM 18.3.24)",
    BrigRound "BrigRound (PRM 18.3.26)",
    BrigSamplerAddressing "BrigSamplerAddressing (PRM 18.3.27)",
    BrigSamplerCoordNormalization "BrigSamplerCoordNormalization (PRM 18.3.28)",
    BrigSamplerFilter "BrigSamplerFilter (PRM 18.3.29)",
    BrigSamplerQuery "BrigSamplerQuery (PRM 18.3.30)",
    BrigSegment "BrigSegment (PRM 18.3.34)",
    BrigType "BrigType (PRM 18.3.35)",
    BrigWidth "BrigWidth (PRM 18.3.39)",
);

defined!(mask
    BrigAluModifierMask "BrigAluModifierMask (PRM 18.3.4)",
    BrigExecutableModifierMask "BrigExecutableModifierMask (PRM 18.3.10)",
    BrigMemoryModifierMask "BrigMemoryModifierMask (PRM 18.3.18)",
    BrigSegCvtModifierMask "BrigSegCvtModifierMask (PRM 18.3.33)",
    BrigVariableModifierMask "BrigVariableModifierMask (PRM 18.3.37)",
);

/// What a field of a BRIG entry holds (its width follows: `BrigType` and
/// `BrigControlDirective` are 16-bit, reserved fields as wide as given,
/// the rest 8-bit).
#[derive(Clone, Copy)]
enum F {
    Type,
    Control,
    Segment,
    Align,
    Width,
    Order,
    Scope,
    AtomicOp,
    Compare,
    Pack,
    Round,
    Geometry,
    ImageQuery,
    SamplerQuery,
    ChannelOrder,
    ChannelType,
    Coord,
    Filter,
    Addressing,
    Allocation,
    Linkage,
    Profile,
    Model,
    AluMod,
    MemMod,
    SegCvtMod,
    VarMod,
    ExecMod,
    /// Reserved, this many bytes: must be 0.
    Reserved(usize),
}

/// Whether `v` is defined, and what it should be, for messages.
fn check_defined<T: Defined>(v: T) -> (bool, &'static str) {
    (v.defined(), T::WHAT)
}

impl F {
    fn width(self) -> usize {
        match self {
            F::Type | F::Control => 2,
            F::Reserved(n) => n,
            _ => 1,
        }
    }

    /// Whether the field may hold `v`, and what it must hold.
    fn check(self, v: u64) -> (bool, &'static str) {
        use brig::*;
        let (b, h) = (v as u8, v as u16);
        match self {
            F::Type => check_defined(BrigType::new(h)),
            F::Control => check_defined(BrigControlDirective::new(h)),
            F::Segment => check_defined(BrigSegment::new(b)),
            F::Align => check_defined(BrigAlignment::new(b)),
            F::Width => check_defined(BrigWidth::new(b)),
            F::Order => check_defined(BrigMemoryOrder::new(b)),
            F::Scope => check_defined(BrigMemoryScope::new(b)),
            F::AtomicOp => check_defined(BrigAtomicOperation::new(b)),
            F::Compare => check_defined(BrigCompareOperation::new(b)),
            F::Pack => check_defined(BrigPack::new(b)),
            F::Round => check_defined(BrigRound::new(b)),
            F::Geometry => check_defined(BrigImageGeometry::new(b)),
            F::ImageQuery => check_defined(BrigImageQuery::new(b)),
            F::SamplerQuery => check_defined(BrigSamplerQuery::new(b)),
            F::ChannelOrder => check_defined(BrigImageChannelOrder::new(b)),
            F::ChannelType => check_defined(BrigImageChannelType::new(b)),
            F::Coord => check_defined(BrigSamplerCoordNormalization::new(b)),
            F::Filter => check_defined(BrigSamplerFilter::new(b)),
            F::Addressing => check_defined(BrigSamplerAddressing::new(b)),
            F::Allocation => check_defined(BrigAllocation::new(b)),
            F::Linkage => check_defined(BrigLinkage::new(b)),
            F::Profile => check_defined(BrigProfile::new(b)),
            F::Model => check_defined(BrigMachineModel::new(b)),
            F::AluMod => check_defined(BrigAluModifierMask::new(b)),
            F::MemMod => check_defined(BrigMemoryModifierMask::new(b)),
            F::SegCvtMod => check_defined(BrigSegCvtModifierMask::new(b)),
            F::VarMod => check_defined(BrigVariableModifierMask::new(b)),
            F::ExecMod => check_defined(BrigExecutableModifierMask::new(b)),
            F::Reserved(_) => (v == 0, "0"),
        }
    }
}

/// The checked fields of one BRIG structure: its name, the PRM section
/// defining it, and per field its name, byte offset and content.
struct Layout {
    entry: &'static str,
    rule: &'static str,
    fields: &'static [(&'static str, usize, F)],
}

/// `BrigInstBase.type` (PRM 18.5.2.1), at byte 6 of every instruction.
const INST_TYPE: (&str, usize, F) = ("type", 6, F::Type);

/// The layout of entries of `kind` (PRM 18.5, 18.6), for the entries
/// with enumeration, bit mask or reserved fields.
fn layout(kind: BrigKind) -> Option<&'static Layout> {
    use F::*;
    macro_rules! l {
        ($entry:literal, $rule:literal, [$($f:expr),* $(,)?]) => {
            &Layout { entry: $entry, rule: $rule, fields: &[$($f),*] }
        };
    }
    Some(match kind {
        BrigKind::DIRECTIVE_CONTROL => l!(
            "BrigDirectiveControl",
            "PRM 18.5.1.4",
            [("control", 4, Control), ("reserved", 6, Reserved(2))]
        ),
        BrigKind::DIRECTIVE_FUNCTION
        | BrigKind::DIRECTIVE_KERNEL
        | BrigKind::DIRECTIVE_INDIRECT_FUNCTION
        | BrigKind::DIRECTIVE_SIGNATURE => l!(
            "BrigDirectiveExecutable",
            "PRM 18.5.1.5",
            [
                ("modifier", 24, ExecMod),
                ("linkage", 25, Linkage),
                ("reserved", 26, Reserved(2))
            ]
        ),
        BrigKind::DIRECTIVE_FBARRIER => l!(
            "BrigDirectiveFbarrier",
            "PRM 18.5.1.7",
            [
                ("modifier", 8, VarMod),
                ("linkage", 9, Linkage),
                ("reserved", 10, Reserved(2))
            ]
        ),
        BrigKind::DIRECTIVE_MODULE => l!(
            "BrigDirectiveModule",
            "PRM 18.5.1.10",
            [
                ("profile", 16, Profile),
                ("machineModel", 17, Model),
                ("defaultFloatRound", 18, Round),
                ("reserved", 19, Reserved(1))
            ]
        ),
        BrigKind::DIRECTIVE_VARIABLE => l!(
            "BrigDirectiveVariable",
            "PRM 18.5.1.13",
            [
                ("type", 12, Type),
                ("segment", 14, Segment),
                ("align", 15, Align),
                ("modifier", 24, VarMod),
                ("linkage", 25, Linkage),
                ("allocation", 26, Allocation),
                ("reserved", 27, Reserved(1))
            ]
        ),
        BrigKind::INST_ADDR => l!(
            "BrigInstAddr",
            "PRM 18.5.2.2",
            [
                INST_TYPE,
                ("segment", 12, Segment),
                ("reserved", 13, Reserved(3))
            ]
        ),
        BrigKind::INST_ATOMIC => l!(
            "BrigInstAtomic",
            "PRM 18.5.2.3",
            [
                INST_TYPE,
                ("segment", 12, Segment),
                ("memoryOrder", 13, Order),
                ("memoryScope", 14, Scope),
                ("atomicOperation", 15, AtomicOp),
                ("reserved", 17, Reserved(3))
            ]
        ),
        BrigKind::INST_BASIC => l!("BrigInstBasic", "PRM 18.5.2.4", [INST_TYPE]),
        BrigKind::INST_BR => l!(
            "BrigInstBr",
            "PRM 18.5.2.5",
            [
                INST_TYPE,
                ("width", 12, Width),
                ("reserved", 13, Reserved(3))
            ]
        ),
        BrigKind::INST_CMP => l!(
            "BrigInstCmp",
            "PRM 18.5.2.6",
            [
                INST_TYPE,
                ("sourceType", 12, Type),
                ("modifier", 14, AluMod),
                ("compare", 15, Compare),
                ("pack", 16, Pack),
                ("reserved", 17, Reserved(3))
            ]
        ),
        BrigKind::INST_CVT => l!(
            "BrigInstCvt",
            "PRM 18.5.2.7",
            [
                INST_TYPE,
                ("sourceType", 12, Type),
                ("modifier", 14, AluMod),
                ("round", 15, Round)
            ]
        ),
        BrigKind::INST_IMAGE => l!(
            "BrigInstImage",
            "PRM 18.5.2.8",
            [
                INST_TYPE,
                ("imageType", 12, Type),
                ("coordType", 14, Type),
                ("geometry", 16, Geometry),
                ("reserved", 18, Reserved(2))
            ]
        ),
        BrigKind::INST_LANE => l!(
            "BrigInstLane",
            "PRM 18.5.2.9",
            [
                INST_TYPE,
                ("sourceType", 12, Type),
                ("width", 14, Width),
                ("reserved", 15, Reserved(1))
            ]
        ),
        BrigKind::INST_MEM => l!(
            "BrigInstMem",
            "PRM 18.5.2.10",
            [
                INST_TYPE,
                ("segment", 12, Segment),
                ("align", 13, Align),
                ("width", 15, Width),
                ("modifier", 16, MemMod),
                ("reserved", 17, Reserved(3))
            ]
        ),
        BrigKind::INST_MEM_FENCE => l!(
            "BrigInstMemFence",
            "PRM 18.5.2.11",
            [
                INST_TYPE,
                ("memoryOrder", 12, Order),
                ("globalSegmentMemoryScope", 13, Scope),
                ("groupSegmentMemoryScope", 14, Scope),
                ("imageSegmentMemoryScope", 15, Scope)
            ]
        ),
        BrigKind::INST_MOD => l!(
            "BrigInstMod",
            "PRM 18.5.2.12",
            [
                INST_TYPE,
                ("modifier", 12, AluMod),
                ("round", 13, Round),
                ("pack", 14, Pack),
                ("reserved", 15, Reserved(1))
            ]
        ),
        BrigKind::INST_QUERY_IMAGE => l!(
            "BrigInstQueryImage",
            "PRM 18.5.2.13",
            [
                INST_TYPE,
                ("imageType", 12, Type),
                ("geometry", 14, Geometry),
                ("query", 15, ImageQuery)
            ]
        ),
        BrigKind::INST_QUERY_SAMPLER => l!(
            "BrigInstQuerySampler",
            "PRM 18.5.2.14",
            [
                INST_TYPE,
                ("query", 12, SamplerQuery),
                ("reserved", 13, Reserved(3))
            ]
        ),
        BrigKind::INST_QUEUE => l!(
            "BrigInstQueue",
            "PRM 18.5.2.15",
            [
                INST_TYPE,
                ("segment", 12, Segment),
                ("memoryOrder", 13, Order),
                ("reserved", 14, Reserved(2))
            ]
        ),
        BrigKind::INST_SEG => l!(
            "BrigInstSeg",
            "PRM 18.5.2.16",
            [
                INST_TYPE,
                ("segment", 12, Segment),
                ("reserved", 13, Reserved(3))
            ]
        ),
        BrigKind::INST_SEG_CVT => l!(
            "BrigInstSegCvt",
            "PRM 18.5.2.17",
            [
                INST_TYPE,
                ("sourceType", 12, Type),
                ("segment", 14, Segment),
                ("modifier", 15, SegCvtMod)
            ]
        ),
        BrigKind::INST_SIGNAL => l!(
            "BrigInstSignal",
            "PRM 18.5.2.18",
            [
                INST_TYPE,
                ("signalType", 12, Type),
                ("memoryOrder", 14, Order),
                ("signalOperation", 15, AtomicOp)
            ]
        ),
        BrigKind::INST_SOURCE_TYPE => l!(
            "BrigInstSourceType",
            "PRM 18.5.2.19",
            [
                INST_TYPE,
                ("sourceType", 12, Type),
                ("reserved", 14, Reserved(2))
            ]
        ),
        BrigKind::OPERAND_ALIGN => l!(
            "BrigOperandAlign",
            "PRM 18.6.3",
            [("align", 4, Align), ("reserved", 5, Reserved(3))]
        ),
        BrigKind::OPERAND_CONSTANT_BYTES => l!(
            "BrigOperandConstantBytes",
            "PRM 18.6.6",
            [("type", 4, Type), ("reserved", 6, Reserved(2))]
        ),
        BrigKind::OPERAND_CONSTANT_IMAGE => l!(
            "BrigOperandConstantImage",
            "PRM 18.6.7",
            [
                ("type", 4, Type),
                ("geometry", 6, Geometry),
                ("channelOrder", 7, ChannelOrder),
                ("channelType", 8, ChannelType),
                ("reserved", 9, Reserved(3))
            ]
        ),
        BrigKind::OPERAND_CONSTANT_OPERAND_LIST => l!(
            "BrigOperandConstantOperandList",
            "PRM 18.6.8",
            [("type", 4, Type), ("reserved", 6, Reserved(2))]
        ),
        BrigKind::OPERAND_CONSTANT_SAMPLER => l!(
            "BrigOperandConstantSampler",
            "PRM 18.6.9",
            [
                ("type", 4, Type),
                ("coord", 6, Coord),
                ("filter", 7, Filter),
                ("addressing", 8, Addressing),
                ("reserved", 9, Reserved(3))
            ]
        ),
        _ => return None,
    })
}

/// Checks the fields of the entry `bytes` (at `at` of `section`) against
/// its [`layout`]: one error per field holding a value its type does not
/// define or a nonzero reserved field. Returns whether all are good.
fn check_fields(
    errors: &mut Vec<ValidationError>,
    section: BrigSectionIndex,
    at: u32,
    bytes: &[u8],
) -> bool {
    let Some(kind) = bytes
        .get(2..4)
        .map(|k| BrigKind::new(u16::from_le_bytes([k[0], k[1]])))
    else {
        return true;
    };
    let Some(l) = layout(kind) else {
        return true;
    };
    let mut ok = true;
    for &(name, offset, f) in l.fields {
        let Some(raw) = bytes.get(offset..offset + f.width()) else {
            continue;
        };
        let v = raw.iter().rev().fold(0u64, |v, &b| (v << 8) | u64::from(b));
        let (good, what) = f.check(v);
        if !good {
            ok = false;
            let msg = match f {
                F::Reserved(_) => format!("{}.{name} is {v:#x}, must be 0", l.entry),
                _ => format!("{}.{name} is {v}, not a value of {what}", l.entry),
            };
            errors.push(ValidationError::at(l.rule, section, at, msg));
        }
    }
    ok
}

/// The fields of a directive (PRM 18.5.1): see [`check_fields`]; and
/// the rules of PRM 18.5.1.13 one variable entry decides.
fn check_directive_fields(cx: &mut Cx<'_, '_>, at: CodeOffset, c: Code<'_>) {
    if c.inst().is_some() {
        return;
    }
    if let Ok(bytes) = cx.m.code_bytes(at) {
        check_fields(cx.errors, BrigSectionIndex::CODE, at.get(), bytes);
    }
    if let Code::DirectiveVariable(d) = c {
        check_variable_entry(cx, at, d);
    }
}

/// `BrigDirectiveVariable` (PRM 18.5.1.13): an alignment is given, a
/// non-array variable has `dim` 0, the allocation follows the segment.
fn check_variable_entry(cx: &mut Cx<'_, '_>, at: CodeOffset, d: &brig::BrigDirectiveVariable) {
    use brig::{BrigAllocation as A, BrigSegment as S};
    const R: &str = "PRM 18.5.1.13";
    // Without an align qualifier, the natural alignment is written: never
    // none.
    if d.align == brig::BrigAlignment::NONE {
        let msg = "a variable's align is none, must be its alignment (natural if not given)";
        cx.errors.push(ValidationError::code(R, at, msg));
    }
    let dim = d.dim.get();
    if !d.type_.is_array() && dim != 0 {
        let msg = format!("a variable of non-array type has dim {dim}, must be 0");
        cx.errors.push(ValidationError::code(R, at, msg));
    }
    let allowed: &[A] = match d.segment {
        S::GLOBAL => &[A::PROGRAM, A::AGENT],
        S::READONLY => &[A::AGENT],
        _ => &[A::AUTOMATIC],
    };
    if d.allocation.defined() && !allowed.contains(&d.allocation) {
        let name = |a: A| a.short_name().unwrap_or("?").to_ascii_lowercase();
        let msg = format!(
            "allocation {} is not allowed in the {} segment (allowed: {})",
            name(d.allocation),
            d.segment.short_name().unwrap_or("?").to_ascii_lowercase(),
            allowed
                .iter()
                .map(|&a| name(a))
                .collect::<Vec<_>>()
                .join(", ")
        );
        cx.errors.push(ValidationError::code(R, at, msg));
    }
}

/// The fields of an operand (PRM 18.6): see [`check_fields`].
fn check_operand_fields(cx: &mut Cx<'_, '_>, at: OperandOffset) {
    if let Some(bytes) = cx.m.raw_operand(at.get()) {
        check_fields(cx.errors, BrigSectionIndex::OPERAND, at.get(), bytes);
    }
}

/// The fields of the instruction `bytes` at `at` (PRM 18.5.2): the type,
/// enumerations and bit masks hold defined values, reserved fields are
/// 0. Returns whether all do.
///
/// Run by the instruction rules (layer 2), so through their memo: an
/// instruction's shape holds all of its fields, so this runs once per
/// shape, also for modules from our own writer (a few compares).
pub fn check_inst_fields(errors: &mut Vec<ValidationError>, at: CodeOffset, bytes: &[u8]) -> bool {
    check_fields(errors, BrigSectionIndex::CODE, at.get(), bytes)
}
