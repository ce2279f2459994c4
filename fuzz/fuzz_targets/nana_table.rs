#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| koma_fuzz::nana_table::nana_table(data));
