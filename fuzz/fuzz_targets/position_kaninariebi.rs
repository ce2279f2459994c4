#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| koma_fuzz::positions::positions::<
    koma::games::kaninariebi::KaniNariEbi,
>(data));
