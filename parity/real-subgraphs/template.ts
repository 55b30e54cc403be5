// Renders a manifest template the way a subgraph repository's build script does with the `mustache`
// CLI (`mustache config.json subgraph.template.yaml > subgraph.yaml`). Only plain `{{name}}` tags,
// HTML-escaped as mustache does: that is all a network config fills in. Sections, partials and
// unescaped tags are refused rather than rendered wrongly.
import { BaseError } from "../../lib/errors.js";

export class TemplateError extends BaseError {
  override name = "TemplateError";
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;", "/": "&#x2F;", "`": "&#x60;", "=": "&#x3D;" };

export function renderTemplate(template: string, view: Record<string, string | number>): string {
  return template.replace(/\{\{(\{?)\s*([^}]*?)\s*\}?\}\}/g, (tag, brace: string, name: string) => {
    if (brace || /^[#^/>&!=]/.test(name)) throw new TemplateError(`Unsupported mustache tag ${tag}: only {{name}} is rendered`);
    if (!(name in view)) throw new TemplateError(`The template uses {{${name}}}, which the network config does not set`, { details: { known: Object.keys(view) } });
    return String(view[name]).replace(/[&<>"'`=/]/g, (c) => ESCAPES[c] ?? c);
  });
}
