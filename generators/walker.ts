import { resourceForRef, schemas, type JsonSchema, type ResourceName } from '../schemas/index.js';
import type { GenerationContext } from './context.js';

/** Builds a nested resource in the same context (no reseeding), with that resource's options. */
export type BuildNested = (name: ResourceName, ctx: GenerationContext, options?: object) => unknown;

type FieldValue<Plan> = (ctx: GenerationContext, plan: Plan, build: BuildNested) => unknown;

/**
 * How to make one resource. The schema decides which fields exist and which are required; a recipe only adds
 * the domain's knowledge: coherent facts drawn first (the plan) and realistic values by field name.
 */
export interface Recipe<Plan, Options> {
  plan(ctx: GenerationContext, options: Options): Plan;
  values: Readonly<Record<string, FieldValue<Plan>>>;
  /**
   * Fields whose presence and value follow the lifecycle state: each is drawn aside (GenerationContext.aside), so
   * the state never shifts what the other fields draw.
   */
  followsState?: ReadonlySet<string>;
  /** Where coherence settles whether an optional field is sent; `undefined` leaves it to the profile. */
  present?(field: string, plan: Plan, ctx: GenerationContext): boolean | undefined;
  /** For schemas without properties (the undocumented evaluator_config alternatives): the whole value. */
  whole?(ctx: GenerationContext, plan: Plan): unknown;
}

interface Field {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

function fieldsOf(schema: JsonSchema): Field[] {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const properties = (schema.properties as Record<string, JsonSchema> | undefined) ?? {};
  return Object.entries(properties).map(([name, fieldSchema]) => ({
    name,
    required: required.has(name),
    schema: fieldSchema,
  }));
}

/**
 * A value for a field the recipe knows nothing of, from its schema alone: schema changes show up with no code
 * change.
 */
function schemaValue(schema: JsonSchema, ctx: GenerationContext, build: BuildNested): unknown {
  if (typeof schema.$ref === 'string') return build(resourceForRef(schema.$ref), ctx);
  switch (schema.type) {
    case 'string':
      return schema.format === 'date-time' ? ctx.timestamp(ctx.instant()) : ctx.text(() => ctx.faker.lorem.word());
    case 'integer':
      return ctx.int(0, 100);
    case 'number':
      return ctx.round(ctx.float(0, 100), 3);
    case 'boolean':
      return ctx.chance(0.5);
    case 'array': {
      const items = (schema.items as JsonSchema | undefined) ?? {};
      return Array.from({ length: ctx.edge ? ctx.int(0, 1) : ctx.int(1, 3) }, () => schemaValue(items, ctx, build));
    }
    case 'object':
      return Object.fromEntries(
        fieldsOf(schema)
          .filter((field) => field.required || ctx.includeOptional())
          .map((field) => [field.name, schemaValue(field.schema, ctx, build)]),
      );
    default:
      return ctx.pick([ctx.faker.lorem.word(), ctx.int(0, 100), ctx.chance(0.5), null]);
  }
}

export type CompiledRecipe = (ctx: GenerationContext, options: object, build: BuildNested) => unknown;

/** Walks the resource's schema once and returns the function that fills it in. */
export function compileRecipe<Plan, Options extends object>(
  name: ResourceName,
  recipe: Recipe<Plan, Options>,
): CompiledRecipe {
  const fields = fieldsOf(schemas[name]);
  const declared = new Set(fields.map((field) => field.name));
  const stale = Object.keys(recipe.values).filter((field) => !declared.has(field));
  if (stale.length > 0)
    throw new Error(`${name} recipe has values for fields its schema does not declare: ${stale.join(', ')}`);

  return (ctx, options, build) => {
    const plan = recipe.plan(ctx, options as Options);
    if (recipe.whole) return recipe.whole(ctx, plan);
    const instance: Record<string, unknown> = {};
    const fill = (field: Field) => {
      const sent = field.required || (recipe.present?.(field.name, plan, ctx) ?? ctx.includeOptional());
      if (!sent) return;
      const value = recipe.values[field.name];
      instance[field.name] = value ? value(ctx, plan, build) : schemaValue(field.schema, ctx, build);
    };
    for (const field of fields) {
      if (recipe.followsState?.has(field.name)) ctx.aside(field.name, () => fill(field));
      else fill(field);
    }
    return instance;
  };
}
