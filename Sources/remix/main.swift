import RemixCLI

StandardOutputCheck.install()
await RemixCommand.runMain()
