/** Site model, rules, classifier and verdict arithmetic: pure domain code (JDK and Jackson only). */
package io.siteflow.rules;
