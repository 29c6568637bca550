import RemixCLI

StandardOutputCheck.install()
RemixCommand.main()
