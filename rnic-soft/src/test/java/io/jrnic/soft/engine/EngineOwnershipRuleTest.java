package io.jrnic.soft.engine;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The engine's ownership rule (spec-notes/engine.md): the QP's state has one owner class, and the other engine classes
 * (the binding, the teardown, the transmitter, the receiver...) change it only through the owner's methods. The rule
 * is checked on the compiled classes, so a new direct write fails the build.
 */
class EngineOwnershipRuleTest {
    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.jrnic.soft");

    /**
     * The owners: the QP's state is QpEngine's, the stream's condition StreamCondition's; the send queue ring and the
     * ORQ are their own classes' state, held by SendWork.
     */
    private static final Class<?>[] OWNERS = {QpEngine.class, StreamCondition.class, SendWork.class, SendQueue.class,
            OrdQueue.class};

    @Test
    void noClassButItsOwnerWritesTheQpsState() {
        for (Class<?> owner : OWNERS) {
            noClasses().that().doNotHaveFullyQualifiedName(owner.getName())
                    .should().setFieldWhere(targetOwner(owner))
                    .because(owner.getSimpleName() + "'s fields are written by " + owner.getSimpleName()
                            + " alone (spec-notes/engine.md, ownership)")
                    .check(ENGINE);
        }
    }

    @Test
    void theRingsAreReachedOnlyThroughTheirOwner() {
        noClasses().that().doNotHaveFullyQualifiedName(SendWork.class.getName())
                .and().doNotHaveFullyQualifiedName(SendQueue.class.getName())
                .and().doNotHaveFullyQualifiedName(OrdQueue.class.getName())
                .should().accessClassesThat().haveFullyQualifiedName(SendQueue.class.getName())
                .orShould().accessClassesThat().haveFullyQualifiedName(OrdQueue.class.getName())
                .because("the send queue and the ORQ are the QP owner's SendWork: others go through its methods")
                .check(ENGINE);
    }

    /**
     * The wider rule: in the provider, a class writes only its own fields (a nested class counts as its enclosing
     * class). The work request entries are the exception: flyweights that the verbs adapter fills at post time and
     * the engine completes (SqEntry, RqEntry, RecvInfo, ReadJob), as siw's WQEs.
     */
    @Test
    void everyClassWritesOnlyItsOwnFields() {
        noClasses().should().setFieldWhere(DescribedPredicate.describe("a field of another class (not an entry)",
                        a -> !topLevel(a.getTargetOwner()).equals(topLevel(a.getOriginOwner()))
                                && a.getTargetOwner().getPackageName().startsWith("io.jrnic.soft")
                                && !ENTRIES.contains(topLevel(a.getTargetOwner()))))
                .because("one owner per piece of state (spec-notes/engine.md)")
                .check(ENGINE);
    }

    private static final java.util.Set<String> ENTRIES = java.util.Set.of(SqEntry.class.getName(),
            RqEntry.class.getName(), RecvInfo.class.getName(), ReadJob.class.getName());

    private static String topLevel(com.tngtech.archunit.core.domain.JavaClass c) {
        String n = c.getName();
        int d = n.indexOf('$');
        return d < 0 ? n : n.substring(0, d);
    }

    private static DescribedPredicate<JavaFieldAccess> targetOwner(Class<?> owner) {
        return DescribedPredicate.describe("a field of " + owner.getSimpleName(),
                a -> a.getTargetOwner().isEquivalentTo(owner));
    }
}
