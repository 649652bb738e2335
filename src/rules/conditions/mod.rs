//! Rules of the `conditions` category.
