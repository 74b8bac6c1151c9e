//! Opening paths, reading bytes and watching for change. Knows nothing of JSON.
