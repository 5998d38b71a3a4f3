import { utcParts } from '../../generators/context.js';
import { eraNames, serviceEras, type ServiceDateForm } from '../../generators/vocabulary.js';
import { schemas, type JsonSchema, type ResourceName } from '../../schemas/index.js';
import { instantMicros } from './clock.js';
import { HttpProblem } from './errors.js';
import { fillNulls, visitObjects, type ObjectVisit } from './nullable.js';
import type { Scenario } from './scenarios.js';

/** An instant (microseconds) in one of the service's own forms, in UTC as the service stores it. */
function serviceDate(micros: number, form: ServiceDateForm): string {
  const { day, time, fraction } = utcParts(micros);
  // MongoDB keeps milliseconds: the naive form's last three digits are always zeros.
  return form === 'naive' ? `${day}T${time}.${fraction.slice(0, 3)}000` : `${day} ${time}.${fraction}+00:00`;
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
      if (micros !== undefined) value[field] = serviceDate(micros, form);
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
export function asScenarioSends<T>(name: ResourceName, instance: T, scenario: Scenario): T {
  if (scenario.eraDates && scenario.era === undefined) throw noEra;
  const visits: ObjectVisit[] = [];
  if (scenario.nullable) visits.push(fillNulls);
  if (scenario.eraDates && scenario.era) visits.push(eraDates(serviceEras[scenario.era].dateForm));
  if (visits.length > 0)
    visitObjects(instance, schemas[name], (value, properties) => {
      for (const visit of visits) visit(value, properties);
    });
  return instance;
}
