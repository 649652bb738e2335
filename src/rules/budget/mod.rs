//! Rules of the `budget` category.
