package io.apiary.ingest.deploy;

import java.util.List;
import java.util.Map;

/**
 * The fields of a {@code kustomization.yaml} that deploy/ uses (kustomize v5,
 * {@code kustomize.config.k8s.io/v1beta1}), for {@link StrictYaml#kustomization}: a field not
 * listed here, misspelt or not, fails the parse. Add a field when a kustomization starts using it.
 *
 * <p>{@code secretGenerator} is listed only so that the tests can refuse it with a clear message:
 * no secret value is generated from files in the repository.
 *
 * <p>A kustomize Component ({@code kustomize.config.k8s.io/v1alpha1}, kind {@code Component}: an
 * optional part an overlay adds with {@code components:}) has the same fields.
 *
 * @param apiVersion         {@code kustomize.config.k8s.io/v1beta1} ({@code v1alpha1} for a Component)
 * @param kind               {@code Kustomization} or {@code Component}
 * @param namespace          the namespace set on every object, or null
 * @param resources          files and folders of objects, or null
 * @param components         folders of Components to add, or null
 * @param labels             labels added to objects, or null
 * @param configMapGenerator generated ConfigMaps, or null
 * @param secretGenerator    generated Secrets (refused by the tests), or null
 * @param patches            patches of the resources, or null
 * @param replicas           replica counts set by name, or null
 * @param images             image names, tags and digests set by name, or null
 */
record Kustomization(
        String apiVersion,
        String kind,
        String namespace,
        List<String> resources,
        List<String> components,
        List<Labels> labels,
        List<Generator> configMapGenerator,
        List<Generator> secretGenerator,
        List<Patch> patches,
        List<Replicas> replicas,
        List<Image> images) {

    /** One {@code labels} entry: labels, whether selectors and templates get them too, or exactly which fields. */
    record Labels(
            Map<String, String> pairs, Boolean includeSelectors, Boolean includeTemplates, List<FieldSpec> fields) {}

    /** A field of some kinds of objects, such as {@code spec/template/metadata/labels} of Deployments. */
    record FieldSpec(String group, String version, String kind, String path, Boolean create) {}

    /** A ConfigMap or Secret generator. */
    record Generator(
            String name,
            String namespace,
            String behavior,
            List<String> files,
            List<String> literals,
            List<String> envs,
            GeneratorOptions options) {}

    /** Options of one generator. */
    record GeneratorOptions(
            Map<String, String> labels,
            Map<String, String> annotations,
            Boolean disableNameSuffixHash,
            Boolean immutable) {}

    /** A strategic-merge or JSON 6902 patch, from a file ({@code path}) or inline ({@code patch}). */
    record Patch(String path, String patch, Target target, Map<String, Boolean> options) {}

    /** The objects a patch applies to. */
    record Target(
            String group,
            String version,
            String kind,
            String name,
            String namespace,
            String labelSelector,
            String annotationSelector) {}

    /** A replica count set on a Deployment or StatefulSet by name. */
    record Replicas(String name, Integer count) {}

    /** @return whether this is a Component (rendered only as part of an overlay that adds it) */
    boolean isComponent() {
        return "Component".equals(kind);
    }

    /** An image reference rewritten by name. */
    record Image(String name, String newName, String newTag, String digest) {}
}
