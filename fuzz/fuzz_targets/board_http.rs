#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| koma_fuzz::board::board_http(data));
