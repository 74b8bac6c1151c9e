//! The interactive viewer: state, keys, scrolling, follow mode, search, folding.
