//! The plan a model keeps: the `write_todos` list and its planner state with the overuse
//! guard, the todo dialects of other agents, the `plan`/`plan_progress` tools, and the
//! steps a model declares in its text.

pub mod dialects;
pub mod guard;
pub mod planner;
pub mod recorded;
pub mod steps;
pub mod todos;
pub mod tools;
