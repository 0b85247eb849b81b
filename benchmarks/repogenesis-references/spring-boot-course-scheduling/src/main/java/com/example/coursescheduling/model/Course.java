package com.example.coursescheduling.model;

public class Course {
    public Long id;
    public String name;
    public Integer credits;
    public Long departmentId;
}
