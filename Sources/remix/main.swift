import RemixCLI

StandardOutputCheck.install()
RemixCommand.runMain()
