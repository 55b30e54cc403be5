// The parser's shape as the metrics test reads it (the package ships no types).
declare module "parse-prometheus-text-format" {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
