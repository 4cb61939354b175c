// The programmatic API of @toolscout/cli: run the command line in-process (tests, other tools).
export {
  type CliCommand,
  type CliIO,
  type CliOutput,
  cliVersion,
  EXIT_INPUT_ERROR,
  EXIT_OK,
  EXIT_USAGE_ERROR,
  HELP,
  InputFileError,
  MAX_WHOLE_FILE_BYTES,
  parseCliArgs,
  runCli,
  type SearchCommand,
  UsageError,
} from './cli.js';
export { LineTooLongError, MAX_LINE_BYTES, nodeFileIO, readLines } from './node-io.js';
