import ArgumentParser

/// How a command that changes the library takes the library's lock: at once, or waiting with
/// `--wait`. `CommandContext` takes it.
struct LockOptions: ParsableArguments {
    @Flag(help: "Wait while another ingest run or watch holds the library, instead of exiting with 75.")
    var wait = false
}
