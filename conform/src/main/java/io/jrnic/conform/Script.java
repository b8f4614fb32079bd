package io.jrnic.conform;

/** The steps of one case: drive the target, inject, return what it did. */
@FunctionalInterface
public interface Script {
    Observation run(CaseContext context) throws Exception;
}
