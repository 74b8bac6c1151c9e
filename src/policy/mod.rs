//! Tool display styles: parsing every accepted form and resolving them per turn.
