#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| koma_fuzz::engine::engine_lines(data));
