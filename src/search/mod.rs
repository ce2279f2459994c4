//! Search (filled below).
