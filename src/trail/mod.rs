//! What a user reads of a run: the tagged reasoning trail, one-sentence reflections, and
//! the bounded context capsule handed to a parent agent.

pub mod capsule;
pub mod reasoning;
