pub fn to_dot(_p: &super::Program) -> String { String::new() }
