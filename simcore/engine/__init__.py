"""One game on fixed-shape arrays: the vocabulary, theme loading, the numba kernel and its
parallel driver, the tracer, and the seat and event rows a block of games becomes. Imports
nothing from runs, studies, reports or the command line; its one partner is `strategies`,
whose decision functions the kernel compiles in."""
