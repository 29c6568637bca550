import RemixCLI

RemixCommand.main()
