import RemixCLI
import RemixSystem

StandardOutputCheck.install()
exit(await RemixCommand.execute(Array(CommandLine.arguments.dropFirst())))
