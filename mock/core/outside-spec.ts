import { utcParts } from '../../generators/context.js';
import { eraNames, serviceEras, type ServiceDateForm } from '../../generators/vocabulary.js';
import { operation as definition, type OperationId } from '../../api/operations.js';
import { schemas, type JsonSchema } from '../../schemas/index.js';
import { instantMicros } from './clock.js';
import { HttpProblem } from './errors.js';
import { fillNulls, visitObjects, type ObjectVisit } from './nullable.js';
import type { Scenario } from './scenarios.js';

/** An instant (microseconds) in one of the service's own forms (generators/vocabulary.ts), in UTC as it stores it. */
const serviceDates: Record<ServiceDateForm, (parts: ReturnType<typeof utcParts>) => string> = {
  // MongoDB keeps milliseconds: the naive form's last three digits are always zeros.
  naive: ({ day, time, fraction }) => `${day}T${time}.${fraction.slice(0, 3)}000`,
  offset: ({ day, time, fraction }) => `${day}T${time}.${fraction}+00:00`,
  spaced: ({ day, time, fraction }) => `${day} ${time}.${fraction}+00:00`,
  zulu: ({ day, time, fraction }) => `${day}T${time}.${fraction}Z`,
};

/** The schema of one record an operation answers (each item of an array answer is walked on its own). */
function recordSchema(operation: OperationId): JsonSchema {
  return schemas[definition(operation).response.resource];
}

function isDateTime(property: JsonSchema): boolean {
  return property.type === 'string' && property.format === 'date-time';
}

/** A visit that writes every date-time field of an object in the era's form (`naive` or `spaced`). */
function eraDates(form: ServiceDateForm): ObjectVisit {
  return (value, properties) => {
    for (const [field, property] of Object.entries(properties)) {
      const text = value[field];
      const micros = isDateTime(property) && typeof text === 'string' ? instantMicros(text) : undefined;
      if (micros !== undefined) value[field] = serviceDates[form](utcParts(micros));
    }
  };
}

const noEra = new HttpProblem(
  400,
  `scenario key 'eraDates' needs an era to take the dates of (era=${eraNames.join(', era=')})`,
);

/** Whether a scenario asks for anything outside the spec; when not, asScenarioSends leaves an instance as it is. */
export function sendsOutsideSpec(scenario: Scenario): boolean {
  return scenario.nullable === true || scenario.eraDates === true;
}

/**
 * An instance as its scenario asks it sent, outside the spec: absent optional fields as null (`nullable`, as real
 * deployments serialize them), date-times in the era's own forms (`eraDates`: the spec says RFC 3339, the real service
 * sent these), so a frontend team can test that its code survives them. One walk does both: each object's anyOf
 * branch is read before either changes it. A 400 for `eraDates` without an era. Mutates and returns the instance.
 */
export function asScenarioSends<T>(operation: OperationId, instance: T, scenario: Scenario): T {
  if (scenario.eraDates && scenario.era === undefined) throw noEra;
  const visits: ObjectVisit[] = [];
  if (scenario.nullable) visits.push(fillNulls);
  if (scenario.eraDates && scenario.era) visits.push(eraDates(serviceEras[scenario.era].dateForms[operation]));
  if (visits.length > 0)
    visitObjects(instance, recordSchema(operation), (value, properties) => {
      for (const visit of visits) visit(value, properties);
    });
  return instance;
}
