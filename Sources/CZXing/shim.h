// zxing-cpp's headers are C++, which Swift does not import here: CZXingShim includes them and
// offers Swift a C interface. This module only carries ingest-zxing.pc's compiler and linker flags.
