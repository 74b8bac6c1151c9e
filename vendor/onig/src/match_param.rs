//! Match Parameters
//!
//! Contains the definition for the `MatchParam` struct. This can be
//! used to control the behavior of searching and matching.

use std::cell::Cell;
use std::os::raw::{c_uint, c_ulong};

/// Parameters for a Match or Search.
///
/// overhear patch 01: the C `OnigMatchParam` is allocated only when it is
/// first needed (a setter, or `as_raw`), not by `default()`: a search with
/// default parameters (syntect passes `MatchParam::default()` to every one)
/// then goes to `onig_search`/`onig_match`, which keep the same defaults on
/// the C stack, instead of a malloc and a free per search. (The defaults are
/// Oniguruma's global limits, read when the parameters are made; nothing in
/// overhear changes them.)
pub struct MatchParam {
    raw: Cell<*mut onig_sys::OnigMatchParam>,
}

impl MatchParam {
    /// Set the match stack limit
    pub fn set_match_stack_limit(&mut self, limit: u32) {
        unsafe {
            onig_sys::onig_set_match_stack_limit_size_of_match_param(self.as_raw(), limit as c_uint);
        }
    }

    /// Set the retry limit in match
    pub fn set_retry_limit_in_match(&mut self, limit: u32) {
        unsafe {
            onig_sys::onig_set_retry_limit_in_match_of_match_param(
                self.as_raw(),
                c_ulong::from(limit),
            );
        }
    }

    /// Get the Raw `OnigMatchParam` Pointer
    pub fn as_raw(&self) -> *mut onig_sys::OnigMatchParam {
        if self.raw.get().is_null() {
            self.raw.set(unsafe {
                let new = onig_sys::onig_new_match_param();
                onig_sys::onig_initialize_match_param(new);
                new
            });
        }
        self.raw.get()
    }

    /// The raw parameters if any were made, else null: the defaults.
    pub(crate) fn raw_or_default(&self) -> *mut onig_sys::OnigMatchParam {
        self.raw.get()
    }
}

impl Default for MatchParam {
    fn default() -> Self {
        MatchParam {
            raw: Cell::new(std::ptr::null_mut()),
        }
    }
}

impl Drop for MatchParam {
    fn drop(&mut self) {
        if !self.raw.get().is_null() {
            unsafe {
                onig_sys::onig_free_match_param(self.raw.get());
            }
        }
    }
}

#[cfg(test)]
mod test {

    use super::*;

    #[test]
    pub fn create_default_match_param() {
        let _mp = MatchParam::default();
    }

    #[test]
    pub fn set_max_stack_size_limit() {
        let mut mp = MatchParam::default();
        mp.set_match_stack_limit(1000);
    }

    #[test]
    pub fn set_retry_limit_in_match() {
        let mut mp = MatchParam::default();
        mp.set_retry_limit_in_match(1000);
    }
}
