// Renders a manifest template the way a subgraph repository's build script does with the `mustache`
// CLI (`mustache config.json subgraph.template.yaml > subgraph.yaml`), with the same library. One check
// on top: every name the template uses must be set by the network config, since mustache would render a
// missing one as nothing and leave a manifest that fails far from the cause. A section (`{{#x}}`) must
// be a boolean: that is what network configs switch parts of a manifest with.
import Mustache from "mustache";
import { BaseError } from "subgraph-workbench/lib/errors";

export class TemplateError extends BaseError {
  override name = "TemplateError";
}

export type TemplateView = { [name: string]: string | number | boolean | TemplateView };

type Token = [type: string, value: string, start: number, end: number, children?: Token[]];

export function renderTemplate(template: string, view: TemplateView): string {
  checkNames(Mustache.parse(template) as Token[], view);
  return Mustache.render(template, view);
}

function checkNames(tokens: Token[], view: TemplateView): void {
  for (const [type, name, , , children] of tokens) {
    if (type === "text" || type === "!" || type === "=") continue;
    if (type === ">") throw new TemplateError(`The template uses the partial {{> ${name}}}, which a network config cannot supply`);
    const value = lookup(view, name);
    const isSection = type === "#" || type === "^";
    if (isSection ? typeof value !== "boolean" : value === undefined || typeof value === "object") {
      throw new TemplateError(
        isSection ? `The template's section {{#${name}}} needs a boolean in the network config, which has ${JSON.stringify(value)}` : `The template uses {{${name}}}, which the network config does not set`,
        { details: { known: Object.keys(view) } },
      );
    }
    if (children) checkNames(children, view);
  }
}

function lookup(view: TemplateView, name: string): TemplateView[string] | undefined {
  let value: TemplateView[string] | undefined = view;
  for (const part of name.split(".")) value = typeof value === "object" && Object.hasOwn(value, part) ? value[part] : undefined;
  return value;
}
