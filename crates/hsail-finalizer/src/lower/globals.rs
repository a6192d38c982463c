//! Module-scope `global` and `readonly` variables.

use amdgpu_codegen::VReg;

use super::Cx;
use super::ldst::Addr;
use crate::Result;

impl Cx<'_> {
    /// The address of a module-scope global or readonly variable (plus a
    /// register and an offset).
    pub(super) fn global_var_addr(
        &mut self,
        _sym: u32,
        _reg: Option<(VReg, bool)>,
        _off: i64,
        what: &str,
    ) -> Result<Addr> {
        Err(self.unsupported(format!(
            "{what}: a global or readonly variable defined in the module"
        )))
    }
}
