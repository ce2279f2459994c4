#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| koma_fuzz::eval_file::eval_file(data));
