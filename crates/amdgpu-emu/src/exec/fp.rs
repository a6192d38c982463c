//! IEEE-754 arithmetic in every MODE round and denorm mode, computed
//! without touching the host's floating-point environment.
