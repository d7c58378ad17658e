//! urlsift
