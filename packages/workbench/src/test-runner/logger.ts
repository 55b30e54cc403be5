// Matchstick's console output: indentation in steps of two, its level prefixes (🆘 𝖷 ⚠️ 💬 🛠 √),
// and the accumulate mode that collects a test's logs so they print after its result line.
export type Style = "red" | "green" | "yellow" | "blue" | "cyan" | "bold" | "italic" | "dim";

const CODES: Record<Style, [number, number]> = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [94, 39],
  cyan: [36, 39],
  bold: [1, 22],
  italic: [3, 23],
  dim: [2, 22],
};

export type Level = "critical" | "error" | "warning" | "info" | "debug" | "success" | "default";

/** matchstick-as's `log.Level` numbers (0..5; graph-ts uses 0..4). */
export const LEVELS: readonly Level[] = ["critical", "error", "warning", "info", "debug", "success"];

const PREFIX: Record<Level, { text: string; styles: Style[] }> = {
  critical: { text: "🆘 ", styles: ["bold", "red"] },
  error: { text: "𝖷 ", styles: ["bold", "red"] },
  warning: { text: "⚠️  ", styles: ["yellow"] },
  info: { text: "💬 ", styles: ["italic"] },
  debug: { text: "🛠  ", styles: ["italic", "cyan"] },
  success: { text: "√ ", styles: ["bold", "green"] },
  default: { text: "", styles: [] },
};

export interface Logger {
  log(level: Level, message: string): void;
  /** A plain line with styles (Matchstick's log_with_style!). */
  styled(message: string, ...styles: Style[]): void;
  paint(text: string, ...styles: Style[]): string;
  addIndent(): void;
  subIndent(): void;
  clearIndent(): void;
  /** Start collecting lines instead of writing them. */
  accumulate(): void;
  /** Stop collecting; returns the collected lines joined with newlines (each line ends with \n). */
  flush(): string;
  /** Writes raw text (already formatted, e.g. flushed logs). */
  raw(text: string): void;
}

export interface LoggerOptions {
  write(text: string): void;
  color: boolean;
}

export function createLogger(options: LoggerOptions): Logger {
  let indent = 0;
  let collecting = false;
  let collected: string[] = [];
  const paint = (text: string, ...styles: Style[]): string => {
    if (!options.color || styles.length === 0) return text;
    return styles.reduce((t, s) => `\u001b[${CODES[s][0]}m${t}\u001b[${CODES[s][1]}m`, text);
  };
  const emit = (line: string): void => {
    // Continuation lines of a multi-line message (a wasm backtrace, pretty JSON) keep the indentation.
    const pad = " ".repeat(indent);
    const text = pad + line.split("\n").join(`\n${pad}`);
    if (collecting) collected.push(text);
    else options.write(`${text}\n`);
  };
  return {
    log(level, message) {
      const p = PREFIX[level];
      emit(paint(`${p.text}${message}`, ...p.styles));
    },
    styled(message, ...styles) {
      emit(paint(message, ...styles));
    },
    paint,
    addIndent: () => void (indent += 2),
    subIndent: () => void (indent = Math.max(0, indent - 2)),
    clearIndent: () => void (indent = 0),
    accumulate: () => void (collecting = true),
    flush() {
      collecting = false;
      const text = collected.map((l) => `${l}\n`).join("");
      collected = [];
      return text;
    },
    raw(text) {
      if (text.length > 0) options.write(text.endsWith("\n") ? text : `${text}\n`);
    },
  };
}
