dependencies {
    implementation(libs.resilience4j.spring.boot3)
}
