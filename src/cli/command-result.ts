/** Each command's action sets the exit code through this holder (0 unless set). */
export interface CommandResult {
  exitCode: number;
}
