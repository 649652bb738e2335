plugins {
    java
    id("org.springframework.boot") version "3.3.1"
}

val resilience4jVersion = "2.2.0"

dependencies {
    implementation("org.springframework.boot:spring-boot-starter-web")
    implementation("io.github.resilience4j:resilience4j-spring-boot3:$resilience4jVersion")
}
