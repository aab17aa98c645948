//! What difftest's supervisor and its worker processes share, below both: the API [`model`]
//! a worker describes, the method-call [`sequence`]s it runs and what running one gave, and
//! the flat wire forms they are read back from ([`sequence::wire`]), the [`jvm`] a worker
//! is asked to start, and the [`message`]s of the protocol between them.

pub mod jvm;
pub mod message;
pub mod model;
pub mod sequence;
