/**
 * Architecture test for the published type surface of every entry point named in package.json `exports`.
 *
 * a. Every type a public signature references is exported from some entry point. A TypeScript user must be able
 *    to name every type a public option takes or a public API returns (to annotate a variable, write a wrapper,
 *    build options ahead of a call) without `Parameters<typeof …>` gymnastics. A type that is declared in this
 *    repository, reachable from a public signature and exported from no entry point is a "forgotten export".
 * b. No export of the main entry (`graceful-ai`) shares a name with an export of the `ai` package, except the
 *    deliberate drop-ins `streamText`, `generateText`, `ToolLoopAgent` and the UI helpers `createAgentUIStream`,
 *    `createAgentUIStreamResponse`, `pipeAgentUIStreamToResponse`, `toUIMessageStream`. Users move imports from
 *    'ai' to 'graceful-ai'; someone who rewrites `import { StepResult } from 'ai'` to 'graceful-ai' must not
 *    silently get another type.
 *
 * Entry points are read from package.json `exports` (`./dist/X.js` → `X.ts`), so a new subpath (for example
 * `graceful-ai/policy`) is checked as soon as it is added there. One TypeScript program serves both checks.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dropIns = new Set([
  'streamText',
  'generateText',
  'ToolLoopAgent',
  'createAgentUIStream',
  'createAgentUIStreamResponse',
  'pipeAgentUIStreamToResponse',
  'toUIMessageStream',
]);

interface Entry {
  /** The import specifier users write, e.g. `graceful-ai/testing`. */
  name: string;
  /** Absolute path of the entry's TypeScript source. */
  file: string;
}

/** Entry points from package.json `exports`; each `./dist/X.js` (or `.d.ts`) target maps to the source `X.ts`. */
function readEntries(): Entry[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, unknown>;
  };
  const entries: Entry[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const conditions = (typeof target === 'string' ? { default: target } : target) as Record<string, unknown>;
    const spec = [conditions.import, conditions.default, conditions.types].find(
      (value): value is string => typeof value === 'string',
    );
    if (spec === undefined || !spec.startsWith('./dist/')) continue; // ./package.json
    const source = join(root, spec.slice('./dist/'.length).replace(/(\.d)?\.[cm]?[jt]s$/, '.ts'));
    if (!existsSync(source))
      throw new Error(`package.json exports["${subpath}"] → ${spec}: no source ${source}`);
    entries.push({ name: subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`, file: source });
  }
  return entries;
}

let entries: Entry[];
let program: ts.Program;
let checker: ts.TypeChecker;
let aiModule: ts.Symbol;

beforeAll(() => {
  entries = readEntries();
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const { options, errors } = ts.convertCompilerOptionsFromJson(config.config.compilerOptions, root);
  if (errors.length > 0)
    throw new Error(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('\n'));
  // `import('ai')` as the repository's own sources resolve it.
  const mainFile = entries.find((entry) => !entry.name.includes('/'))?.file ?? entries[0]!.file;
  const ai = ts.resolveModuleName(
    'ai',
    mainFile,
    options,
    ts.sys,
    undefined,
    undefined,
    ts.ModuleKind.ESNext,
  );
  const aiFile = ai.resolvedModule?.resolvedFileName;
  if (aiFile === undefined) throw new Error(`module 'ai' does not resolve from ${mainFile}`);
  program = ts.createProgram({ rootNames: [...entries.map((entry) => entry.file), aiFile], options });
  checker = program.getTypeChecker();
  aiModule = moduleSymbol(aiFile);
});

function moduleSymbol(file: string): ts.Symbol {
  const sourceFile = program.getSourceFile(file);
  const symbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
  if (symbol === undefined) throw new Error(`no module symbol for ${file}`);
  return symbol;
}

function resolveAlias(symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Declared in this repository: not a default lib file, not under node_modules. */
function isRepoDeclaration(declaration: ts.Declaration): boolean {
  const sourceFile = declaration.getSourceFile();
  return (
    !program.isSourceFileDefaultLibrary(sourceFile) &&
    !sourceFile.fileName.includes('/node_modules/') &&
    sourceFile.fileName.startsWith(`${root}/`)
  );
}

/** A top-level declaration of a module: something that could be exported (not a parameter, local or member). */
function isModuleLevel(declaration: ts.Declaration): boolean {
  const statement = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  return ts.isSourceFile(statement.parent);
}

/** Parts of a public declaration that are not part of its type surface. */
function isHidden(node: ts.Node): boolean {
  if (ts.isClassElement(node)) {
    if (node.name !== undefined && ts.isPrivateIdentifier(node.name)) return true;
    const flags = ts.getCombinedModifierFlags(node as ts.Declaration);
    if (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) return true;
  }
  if (
    (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node)) &&
    checker.isImplementationOfOverload(node)
  ) {
    return true;
  }
  return ts.isBlock(node) || ts.isComputedPropertyName(node) || ts.isDecorator(node);
}

/** Function bodies and initializers (values, not types) are skipped; the declared or inferred type is walked. */
function isBodyOrInitializer(parent: ts.Node, child: ts.Node): boolean {
  const record = parent as { body?: ts.Node; initializer?: ts.Node };
  return record.body === child || record.initializer === child;
}

function findForgottenExports(): string[] {
  const exported = new Set<ts.Symbol>();
  for (const entry of entries) {
    for (const symbol of checker.getExportsOfModule(moduleSymbol(entry.file)))
      exported.add(resolveAlias(symbol));
  }

  const offenders = new Set<string>();
  for (const entry of entries) {
    for (const exportSymbol of checker.getExportsOfModule(moduleSymbol(entry.file))) {
      const seenSymbols = new Set<ts.Symbol>();
      const seenTypes = new Set<ts.Type>();

      const reference = (symbol: ts.Symbol | undefined): void => {
        if (symbol === undefined) return;
        const target = resolveAlias(symbol);
        if (target.flags & ts.SymbolFlags.TypeParameter || exported.has(target) || seenSymbols.has(target))
          return;
        const declarations = (target.declarations ?? []).filter(
          (declaration) => isRepoDeclaration(declaration) && isModuleLevel(declaration),
        );
        if (declarations.length === 0) return;
        seenSymbols.add(target);
        const file = relative(root, declarations[0]!.getSourceFile().fileName);
        offenders.add(`${entry.name}: ${exportSymbol.name} → ${file}:${target.name}`);
        for (const declaration of declarations) visit(declaration);
      };

      const referenceName = (name: ts.EntityName | ts.Expression): void => {
        const node = ts.isQualifiedName(name)
          ? name.right
          : ts.isPropertyAccessExpression(name)
            ? name.name
            : name;
        reference(checker.getSymbolAtLocation(node));
      };

      // Where no type is written, the inferred type is what the emitted declaration will contain.
      const walkType = (type: ts.Type): void => {
        if (seenTypes.has(type)) return;
        seenTypes.add(type);
        if (type.aliasSymbol !== undefined) {
          reference(type.aliasSymbol);
          for (const argument of type.aliasTypeArguments ?? []) walkType(argument);
          return;
        }
        if (type.isUnionOrIntersection()) {
          for (const member of type.types) walkType(member);
          return;
        }
        if (!(type.flags & ts.TypeFlags.Object)) return;
        if ((type as ts.ObjectType).objectFlags & ts.ObjectFlags.Reference) {
          for (const argument of checker.getTypeArguments(type as ts.TypeReference)) walkType(argument);
        }
        const symbol = type.getSymbol();
        if (
          symbol &&
          symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface | ts.SymbolFlags.Enum)
        ) {
          reference(symbol);
          return;
        }
        for (const signature of [...type.getCallSignatures(), ...type.getConstructSignatures()]) {
          for (const parameter of signature.getParameters()) walkType(checker.getTypeOfSymbol(parameter));
          walkType(signature.getReturnType());
        }
        for (const property of type.getProperties()) walkType(checker.getTypeOfSymbol(property));
      };

      const walkInferred = (node: ts.Node): void => {
        if (
          (ts.isVariableDeclaration(node) || ts.isPropertyDeclaration(node) || ts.isParameter(node)) &&
          node.type === undefined
        ) {
          walkType(checker.getTypeAtLocation(node));
        } else if (
          (ts.isFunctionDeclaration(node) ||
            ts.isMethodDeclaration(node) ||
            ts.isGetAccessorDeclaration(node)) &&
          node.type === undefined
        ) {
          const signature = checker.getSignatureFromDeclaration(node);
          if (signature !== undefined) walkType(signature.getReturnType());
        }
      };

      const visit = (node: ts.Node): void => {
        if (isHidden(node)) return;
        if (ts.isTypeReferenceNode(node)) referenceName(node.typeName);
        else if (ts.isExpressionWithTypeArguments(node)) referenceName(node.expression);
        else if (ts.isTypeQueryNode(node)) referenceName(node.exprName);
        else if (ts.isImportTypeNode(node)) {
          const type = checker.getTypeFromTypeNode(node);
          reference(type.aliasSymbol ?? type.getSymbol());
        }
        walkInferred(node);
        ts.forEachChild(node, (child) => {
          if (!isBodyOrInitializer(node, child)) visit(child);
        });
      };

      for (const declaration of resolveAlias(exportSymbol).declarations ?? []) {
        if (isRepoDeclaration(declaration)) visit(declaration);
      }
    }
  }
  return [...offenders].sort();
}

describe('public types', () => {
  it('reads the entry points from package.json exports', () => {
    const names = entries.map((entry) => entry.name);
    expect(names).toEqual(expect.arrayContaining(['graceful-ai', 'graceful-ai/testing', 'graceful-ai/rpc']));
  });

  it('every type a public signature references is exported from some entry point', () => {
    const offenders = findForgottenExports();
    const referrers = new Map<string, string[]>();
    for (const line of offenders) {
      const [from, missing] = line.split(' → ') as [string, string];
      referrers.set(missing, [...(referrers.get(missing) ?? []), from]);
    }
    expect(
      offenders,
      [
        `${referrers.size} type(s) referenced by public signatures but exported from no entry point`,
        '(export each from an entry point, or stop referencing it from public declarations):',
        ...[...referrers.keys()]
          .sort()
          .map((missing) => `  ${missing}  ← ${referrers.get(missing)!.join(', ')}`),
        '',
      ].join('\n'),
    ).toEqual([]);
  });

  it(`no export of graceful-ai shares a name with an export of 'ai' (except the drop-ins)`, () => {
    const main = entries.find((entry) => entry.name === 'graceful-ai');
    expect(main).toBeDefined();
    const aiNames = new Set(checker.getExportsOfModule(aiModule).map((symbol) => symbol.name));
    const collisions = checker
      .getExportsOfModule(moduleSymbol(main!.file))
      .map((symbol) => symbol.name)
      .filter((name) => aiNames.has(name) && !dropIns.has(name))
      .sort();
    expect(
      collisions,
      [
        `${collisions.length} export(s) of graceful-ai shadow an export of 'ai' (rename them):`,
        ...collisions.map((name) => `  ${name}`),
        '',
      ].join('\n'),
    ).toEqual([]);
  });
});
